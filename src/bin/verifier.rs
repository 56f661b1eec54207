fn main() {
    std::process::exit(zkgames::cli::verifier_main());
}
