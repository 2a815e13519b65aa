//! Errors.
