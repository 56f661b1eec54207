//! ZKB++ (MPC-in-the-head) over boolean circuits.
