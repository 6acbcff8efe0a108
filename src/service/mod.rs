//! One function per use case, each one transaction: begin → lock → load → decide → write the
//! effects and their event → commit. Rules are decided in `domain`, never here.

pub mod artifacts;
pub mod globs;
pub mod reads;
pub mod teams;
pub mod views;
pub mod write;
