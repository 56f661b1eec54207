fn main() {
    std::process::exit(zkgames::cli::prover_main());
}
