//! The actions of `dotnet_workload`, by what they do to the SDK installation: reading it
//! (`list`: List, Info, Search) and changing it (`change`: Install, Update, Uninstall).

pub mod change;
pub mod list;
