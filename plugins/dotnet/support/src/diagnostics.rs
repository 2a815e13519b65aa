//! Diagnostics: parse MSBuild / compiler / NuGet console lines into structured records.
