//! Table-driven tests of every rule.
