//! Placeholder while the descriptor rules are written.
