//! The SDK commands, one module per family.

/// `restore`, `build`, `publish`, `pack`, `clean`, `run`, `watch`, `format`.
pub mod build;
/// `dev-certs` and `user-secrets`.
pub mod devcerts;
/// `ef` (the dotnet-ef tool).
pub mod ef;
/// Help texts and usage errors.
pub mod help;
/// `msbuild` evaluation switches.
pub mod msbuild;
/// `new` (templates).
pub mod new;
/// NuGet: `list package`, `package search`, `add`/`remove package`, `nuget locals`.
pub mod package;
/// `sln`/`solution` and project references.
pub mod solution;
/// `test` (VSTest and Microsoft.Testing.Platform).
pub mod test;
/// `tool`.
pub mod tool;
/// `workload`.
pub mod workload;
