//! The one action of `dotnet_server_capabilities`.

pub mod capabilities;
