//! Error-code dictionary: a title, a plain-words explanation, a documentation link and fixes to
//! try for the CS / MSB / NU / NETSDK codes an agent meets most, looked up case-insensitively.
//!
//! The entries are a static slice of Rust values rather than a JSON file parsed at start-up:
//! the compiler checks every entry's shape, lookup needs no parsing, no lazy initialisation and
//! has no failure path, and nothing has to be found on disk at run time. Documentation links
//! follow learn.microsoft.com's per-code pattern ([`documentation_url`]); the few codes documented
//! on a shared page name that page instead.

/// What the dictionary knows about one code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeInfo {
    /// The code as Microsoft spells it (`CS0103`).
    pub code: &'static str,
    /// Short name of the problem.
    pub title: &'static str,
    /// What the code means and its usual causes, in plain words.
    pub explanation: &'static str,
    /// Fixes to try, most likely first.
    pub suggested_fixes: &'static [&'static str],
    /// Documentation page when it is not the per-code pattern.
    shared_page: Option<&'static str>,
}

impl CodeInfo {
    /// The page that documents this code.
    pub fn documentation_url(&self) -> Option<String> {
        self.shared_page.map(str::to_owned).or_else(|| documentation_url(self.code))
    }
}

/// Documentation link for any code whose family has a per-code page on learn.microsoft.com:
/// `CS`, `MSB`, `NU`, `NETSDK`, and the code-analysis rules `CA` and `IDE`. Listed or not.
pub fn documentation_url(code: &str) -> Option<String> {
    let prefix = code.trim_end_matches(|c: char| c.is_ascii_digit());
    if prefix.len() == code.len() {
        return None;
    }
    let base = match prefix.to_ascii_uppercase().as_str() {
        "CS" => "https://learn.microsoft.com/en-us/dotnet/csharp/language-reference/compiler-messages/",
        "MSB" => "https://learn.microsoft.com/en-us/visualstudio/msbuild/errors/",
        "NU" => "https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/",
        "NETSDK" => "https://learn.microsoft.com/en-us/dotnet/core/tools/sdk-errors/",
        "CA" => "https://learn.microsoft.com/en-us/dotnet/fundamentals/code-analysis/quality-rules/",
        "IDE" => "https://learn.microsoft.com/en-us/dotnet/fundamentals/code-analysis/style-rules/",
        _ => return None,
    };
    Some(format!("{base}{}", code.to_ascii_lowercase()))
}

/// The entry for `code`, ignoring case.
pub fn lookup(code: &str) -> Option<&'static CodeInfo> {
    CODES.iter().find(|info| info.code.eq_ignore_ascii_case(code))
}

/// The contract's code for a codeless error the SDK is known to print, by its message.
pub fn code_for_message(message: &str) -> Option<&'static str> {
    MESSAGE_CODES.iter().find(|(text, _)| message.contains(text)).map(|(_, code)| *code)
}

/// Codeless SDK errors and the codes they get: the words that identify each, as SDK 10.0.401
/// prints them (recorded in the test double's `recordings/`).
const MESSAGE_CODES: &[(&str, &str)] = &[
    (
        "Testing with VSTest target is no longer supported by Microsoft.Testing.Platform",
        crate::errors::code::TEST_RUNNER_MISMATCH,
    ),
    // A VSTest project where global.json selects Microsoft.Testing.Platform (stderr, no `error`).
    (
        "defines test runner to be Microsoft.Testing.Platform. All projects must use that test runner",
        crate::errors::code::TEST_RUNNER_MISMATCH,
    ),
    // `dotnet add package <id>` without a version, for an id no source serves: NuGet's
    // `error:` line has no code, but it is NU1101's case.
    ("There are no versions available for the package", "NU1101"),
];

/// Every entry, grouped by family (CS, MSB, NU, NETSDK) and sorted by code within a family.
pub fn all() -> &'static [CodeInfo] {
    CODES
}

const fn entry(
    code: &'static str,
    title: &'static str,
    explanation: &'static str,
    suggested_fixes: &'static [&'static str],
) -> CodeInfo {
    CodeInfo { code, title, explanation, suggested_fixes, shared_page: None }
}

/// The page of `dotnet format`, which documents its diagnostic ids without digits.
const FORMAT_PAGE: &str = "https://learn.microsoft.com/en-us/dotnet/core/tools/dotnet-format";

/// The page of NuGet Audit's NU1901-NU1904.
const AUDIT_PAGE: &str = "https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1901-nu1904";

/// What to do about a package with a known vulnerability, whatever its severity.
const AUDIT_FIXES: &[&str] = &[
    "Update to a fixed version: dotnet add package <id> --version <fixed version>",
    "Find out why a transitive package is present: dotnet nuget why <project> <id>",
    "List vulnerable packages: dotnet list package --vulnerable --include-transitive",
    "Accept the risk for one advisory only: a NuGetAuditSuppress item with its URL",
];

/// A NuGet Audit entry (NU1901-NU1904): the severity's title and explanation, the shared fixes.
const fn audit(code: &'static str, title: &'static str, explanation: &'static str) -> CodeInfo {
    CodeInfo { code, title, explanation, suggested_fixes: AUDIT_FIXES, shared_page: Some(AUDIT_PAGE) }
}

const NULLABLE_WARNINGS_PAGE: &str =
    "https://learn.microsoft.com/en-us/dotnet/csharp/language-reference/compiler-messages/nullable-warnings";

static CODES: &[CodeInfo] = &[
    // --- C# compiler ----------------------------------------------------------------------
    entry(
        "CS0019",
        "Operator cannot be applied to these operand types",
        "A binary operator (+, ==, &&, ?? ...) is used on two operand types for which no built-in or user-defined operator exists.",
        &[
            "Convert one operand so both have compatible types (int.Parse, ToString(), a cast)",
            "Check that a value type is not compared with an incompatible type or with null by mistake",
            "Define the operator on your own type if it should support it",
        ],
    ),
    entry(
        "CS0029",
        "Cannot implicitly convert type",
        "A value is assigned, returned or passed where another type is expected and no implicit conversion exists between the two.",
        &[
            "Change the declared type of the variable, property or return value",
            "Convert the value explicitly when the conversion is meaningful",
            "If the value is a Task, await it instead of assigning the Task itself",
        ],
    ),
    entry(
        "CS0101",
        "Namespace already contains a definition with this name",
        "Two types with the same name are declared in the same namespace, typically in two files or in a copied file.",
        &[
            "Rename or delete one of the two declarations",
            "Look for a duplicated .cs file or a type generated twice",
            "Add the partial modifier to both if they are meant to be one type",
        ],
    ),
    entry(
        "CS0103",
        "The name does not exist in the current context",
        "An identifier is used that is not declared in any scope visible at that point: a typo, a missing using directive, or a variable used outside the block that declares it.",
        &[
            "Check the spelling and casing of the identifier",
            "Add the missing using directive (for example 'using System;')",
            "Declare the variable in a scope that encloses every use",
        ],
    ),
    entry(
        "CS0115",
        "No suitable method found to override",
        "A member is marked override but the base class has no virtual, abstract or override member with the same name and signature.",
        &[
            "Make the name, parameters and return type match the base member",
            "Mark the base member virtual or abstract if you own it",
            "Remove the override modifier if the member is new",
        ],
    ),
    entry(
        "CS0116",
        "A namespace cannot directly contain members such as fields or methods",
        "A field, method or property sits directly inside a namespace instead of inside a class, struct, record or interface, often because of a misplaced brace.",
        &[
            "Move the member inside a type declaration",
            "Check that the braces around the type are balanced",
            "Keep top-level statements in a single file of an executable project",
        ],
    ),
    entry(
        "CS0117",
        "Type does not contain a definition for the member",
        "A static member or enum value is accessed on a type that does not declare it, often after an API change between package versions.",
        &[
            "Check the member name and casing",
            "Check that the referenced package version provides the member",
            "Check that the name refers to the type you mean and not another type with the same name",
        ],
    ),
    entry(
        "CS0119",
        "Name is used like a different kind of symbol",
        "A name that refers to a type, method, namespace or variable is used as if it were another kind of symbol, such as calling a type like a method or using a method group as a value.",
        &[
            "Add 'new' to create an instance of a type",
            "Add parentheses to call a method",
            "Rename a local or member that hides a type of the same name",
        ],
    ),
    entry(
        "CS0120",
        "An object reference is required for the non-static member",
        "An instance field, method or property is used from a static context (such as a static Main) without an instance.",
        &[
            "Create an instance and access the member through it",
            "Mark the member static if it does not use instance state",
            "Move the calling code into an instance method",
        ],
    ),
    entry(
        "CS0122",
        "Member is inaccessible due to its protection level",
        "The code uses a type or member whose access modifier (private, protected, internal) does not allow access from this place.",
        &[
            "Use a public member or API instead",
            "Change the access modifier if you own the code",
            "For tests, expose internals with InternalsVisibleTo rather than making them public",
        ],
    ),
    entry(
        "CS0128",
        "A local variable with this name is already defined in this scope",
        "Two local variables (or pattern variables) with the same name are declared in the same scope.",
        &[
            "Rename one of the variables",
            "Assign to the existing variable instead of declaring it again",
            "Put one of the declarations in its own block",
        ],
    ),
    entry(
        "CS0161",
        "Not all code paths return a value",
        "A method, property getter or lambda with a return type can reach its end on some path without a return statement.",
        &[
            "Add a return statement at the end of the member",
            "Return or throw in every branch of if / switch statements",
            "Throw an exception on paths that should be unreachable",
        ],
    ),
    entry(
        "CS0165",
        "Use of unassigned local variable",
        "A local variable is read before the compiler can prove it was assigned on every path leading to the read.",
        &[
            "Initialize the variable where it is declared",
            "Assign it on every branch before it is read",
            "Use a TryParse / out-variable pattern that guarantees assignment",
        ],
    ),
    entry(
        "CS0188",
        "'this' is used before all fields are assigned",
        "In a struct constructor, 'this' or an instance member is used before every field has been assigned. Since C# 11 fields are defaulted automatically, so this mostly appears with older language versions.",
        &[
            "Assign every field before using 'this' or calling instance members",
            "Chain to the parameterless constructor with ': this()'",
            "Use C# 11 or later, where unassigned struct fields default automatically",
        ],
    ),
    entry(
        "CS0234",
        "Type or namespace does not exist in the namespace",
        "A qualified name (Namespace.Type) cannot be resolved: the outer namespace exists but not that member, usually because an assembly or package reference is missing.",
        &[
            "Add the NuGet package or project reference that provides the namespace",
            "Check the spelling of each part of the qualified name",
            "Check that the referenced package version contains the type",
        ],
    ),
    entry(
        "CS0246",
        "The type or namespace name could not be found",
        "The compiler cannot find the type or namespace: a using directive, a package reference or a project reference is missing, or the name is misspelled.",
        &[
            "Add the missing using directive",
            "Add the package that provides the type: dotnet add package <PackageId>",
            "Add the project that defines it: dotnet add reference <path/to/Project.csproj>",
            "Check the spelling and casing of the name",
        ],
    ),
    entry(
        "CS0266",
        "Cannot implicitly convert type; an explicit conversion exists",
        "The conversion may lose data or fail at run time (double to int, base type to derived type, nullable to non-nullable value), so the compiler requires it to be explicit.",
        &[
            "Add an explicit cast if the conversion is intended",
            "Change the target's type so no conversion is needed",
            "Use a conversion method (Convert.ToInt32, Math.Round) or a type pattern ('is')",
        ],
    ),
    entry(
        "CS0507",
        "Cannot change access modifiers when overriding",
        "An override declares a different access modifier than the virtual member it overrides.",
        &[
            "Give the override the same access modifier as the base member",
            "When overriding a 'protected internal' member from another assembly, declare it 'protected'",
        ],
    ),
    entry(
        "CS0535",
        "Class does not implement an interface member",
        "A class or struct lists an interface but has no member implementing one of its members with a matching signature.",
        &[
            "Implement the missing member with exactly the interface's signature",
            "Make the class abstract and declare the member abstract",
            "Check return type, parameter types and generic constraints against the interface",
        ],
    ),
    entry(
        "CS0539",
        "Explicit interface member is not a member of the interface",
        "An explicit interface implementation (IFoo.Member) names a member that the interface does not declare with that signature.",
        &[
            "Match the interface member's signature exactly",
            "Remove the explicit implementation if the interface no longer declares the member",
            "Check that the interface named is the one you mean (same name in another namespace)",
        ],
    ),
    entry(
        "CS1001",
        "Identifier expected",
        "The parser expected a name (of a variable, parameter, type or member) and found something else: a keyword, a number or a stray symbol.",
        &[
            "Look at the reported column for a missing or misplaced name",
            "Prefix a reserved keyword used as a name with @ (for example @class)",
            "Look for an extra comma, dot or parenthesis just before",
        ],
    ),
    entry(
        "CS1002",
        "; expected",
        "A statement is not terminated by a semicolon, or an earlier syntax error confused the parser.",
        &[
            "Add the missing semicolon at the end of the statement",
            "Check the preceding lines for unbalanced parentheses, brackets or quotes",
        ],
    ),
    entry(
        "CS1061",
        "Type does not contain a definition for the member",
        "A member is accessed on an instance whose type has no such member, and no extension method with that name is in scope.",
        &[
            "Check the member name and casing",
            "Add the using directive of the extension method's namespace (for example System.Linq)",
            "Check the variable's actual type and convert or cast it if needed",
            "Check that the package version provides the member",
        ],
    ),
    entry(
        "CS1503",
        "Argument cannot convert from one type to another",
        "An argument's type does not convert to the type of the matching parameter of any overload being called.",
        &[
            "Convert or cast the argument to the parameter's type",
            "Call an overload that accepts the argument's type",
            "Check the order of the arguments",
        ],
    ),
    entry(
        "CS1513",
        "} expected",
        "A closing brace is missing, so a block, type or namespace is never closed.",
        &[
            "Add the missing closing brace",
            "Check that every { has a matching } (formatting the file makes this visible)",
            "Look for an unterminated string or comment that swallowed a brace",
        ],
    ),
    entry(
        "CS5001",
        "Program does not contain a static Main method suitable for an entry point",
        "An executable project has no entry point: no static Main method and no file with top-level statements.",
        &[
            "Add top-level statements or a static Main method",
            "Set <OutputType>Library</OutputType> if the project is a class library",
            "Check that the file with the entry point is included in the compile items",
        ],
    ),
    entry(
        "CS7036",
        "No argument given for a required parameter",
        "A method or constructor is called without a value for a parameter that has no default, often a base-class constructor called implicitly.",
        &[
            "Pass a value for the required parameter",
            "Call the base constructor explicitly with ': base(...)'",
            "Add a default value or an overload without the parameter",
        ],
    ),
    CodeInfo {
        shared_page: Some(NULLABLE_WARNINGS_PAGE),
        ..entry(
            "CS8600",
            "Converting a null literal or possible null value to a non-nullable type",
            "With nullable reference types enabled, a value that may be null is stored in a variable declared as non-nullable.",
            &[
                "Declare the variable nullable (for example string?)",
                "Check for null before the assignment",
                "Use the null-forgiving operator (!) only when the value can never be null",
            ],
        )
    },
    CodeInfo {
        shared_page: Some(NULLABLE_WARNINGS_PAGE),
        ..entry(
            "CS8618",
            "Non-nullable member is not initialized when the constructor exits",
            "With nullable reference types enabled, a non-nullable field or property is not assigned by any constructor.",
            &[
                "Initialize the member where it is declared or in every constructor",
                "Mark it 'required' so that callers must set it",
                "Declare it nullable if null is a valid value",
            ],
        )
    },
    // --- MSBuild --------------------------------------------------------------------------
    entry(
        "MSB1001",
        "Unknown switch",
        "The command received an option it does not recognise: a typo, an option of another command, or one the installed SDK version does not have. dotnet test under VSTest (no test.runner in global.json) hands --project and --solution on to MSBuild, which refuses them: they belong to its Microsoft.Testing.Platform mode.",
        &[
            "Check the option with 'dotnet <command> --help'",
            "For dotnet test: let the Test action pick the runner from global.json (testRunner Auto), or select Microsoft.Testing.Platform for the folder in global.json: {\"test\": {\"runner\": \"Microsoft.Testing.Platform\"}}",
            "Check that the installed SDK version supports the option (dotnet --version)",
            "Pass MSBuild properties as -p:Name=Value",
        ],
    ),
    entry(
        "MSB1003",
        "Specify a project or solution file",
        "The command ran in a folder that contains no project or solution file, and none was passed.",
        &[
            "Pass the project or solution path as an argument",
            "Run the command in the folder that contains the project",
            "Create a project first: dotnet new <template>",
        ],
    ),
    entry(
        "MSB1009",
        "Project file does not exist",
        "The project or solution path passed to the command does not exist.",
        &[
            "Check the path and its casing (Linux and macOS file systems are case-sensitive)",
            "Use a path relative to the working directory, or an absolute path",
            "List the solution's projects: dotnet sln list",
        ],
    ),
    entry(
        "MSB1011",
        "More than one project or solution file in the folder",
        "The folder contains several project or solution files, so the command cannot choose one.",
        &["Pass the project or solution file explicitly", "Remove stale project or solution files from the folder"],
    ),
    entry(
        "MSB3021",
        "Unable to copy a file",
        "A file could not be copied to the output folder, usually because a running process locks it or access is denied.",
        &[
            "Stop the application or test host that is using the output folder",
            "Check the permissions of the output folder",
            "Run 'dotnet build-server shutdown' and build again",
        ],
    ),
    entry(
        "MSB3027",
        "Could not copy a file: retry count exceeded",
        "MSBuild retried copying a file to the output folder and gave up because another process kept it locked; the message names that process.",
        &[
            "Stop the process named in the message (often the app itself or a test host)",
            "Close debuggers or file watchers that use the output folder",
            "Run 'dotnet build-server shutdown' and build again",
        ],
    ),
    entry(
        "MSB3073",
        "A command exited with a non-zero code",
        "A command run by an Exec task, such as a pre-build or post-build event, failed.",
        &[
            "Run the command shown in the message yourself to see its error",
            "Check that the tool it calls is installed and on PATH",
            "Check the Exec task or build event in the project file",
        ],
    ),
    entry(
        "MSB3202",
        "Project file was not found",
        "A ProjectReference or a solution entry points at a project file that does not exist.",
        &[
            "Fix the path of the ProjectReference or of the solution entry",
            "Remove the stale reference: dotnet remove reference <path>",
            "Restore the missing project from source control",
        ],
    ),
    entry(
        "MSB3275",
        "Reference has a dependency built for a newer framework",
        "A referenced assembly depends on another assembly that targets a higher framework version than the project, so the reference cannot be resolved.",
        &[
            "Raise the project's target framework to the one named in the message",
            "Use a version of the referenced library built for your framework",
            "Remove the reference if it is not needed",
        ],
    ),
    entry(
        "MSB3277",
        "Conflicts between different versions of the same assembly",
        "Two references need different versions of the same dependent assembly and MSBuild could not reconcile them.",
        &[
            "Build with -v:detailed to see which reference wants which version",
            "Reference the newer package version directly so it wins",
            "Align package versions across projects (Central Package Management)",
        ],
    ),
    entry(
        "MSB3321",
        "Importing the key file was canceled",
        "Signing needs a password-protected .pfx key file that MSBuild could not import without an interactive prompt.",
        &[
            "Import the .pfx once interactively so it is in the certificate store",
            "Sign with an .snk key file that has no password",
            "Turn signing off for this build if it is not needed",
        ],
    ),
    entry(
        "MSB3644",
        "Reference assemblies for the framework were not found",
        "The project targets a .NET Framework version whose reference assemblies (targeting pack) are not installed.",
        &[
            "Add the Microsoft.NETFramework.ReferenceAssemblies package to build on any OS",
            "Install the .NET Framework Developer Pack for that version",
            "Retarget to a modern framework such as net8.0 or net10.0",
        ],
    ),
    entry(
        "MSB4018",
        "A task failed unexpectedly",
        "An MSBuild task threw an exception; the exception text after the message says which task failed and why.",
        &[
            "Read the exception message and stack trace that follow",
            "Clean and rebuild: dotnet clean, then dotnet build",
            "Update the SDK or the package that provides the task",
        ],
    ),
    entry(
        "MSB4019",
        "Imported project was not found",
        "The project imports a .props or .targets file that does not exist, usually from a missing SDK, workload or package.",
        &[
            "Restore packages: dotnet restore",
            "Install the workload or SDK that provides the file",
            "Check the path in the Import element",
        ],
    ),
    entry(
        "MSB4025",
        "Project file could not be loaded",
        "The project file is not well-formed XML.",
        &[
            "Fix the XML error at the line and column given in the message",
            "Look for unclosed elements and unescaped & or < characters",
            "Revert recent manual edits to the project file",
        ],
    ),
    entry(
        "MSB4057",
        "Target does not exist in the project",
        "A target was requested (with -t:Name or by a command) that the project does not define.",
        &[
            "Check the spelling of the target name",
            "List the available targets: dotnet msbuild -targets",
            "Check that the SDK or package defining the target is imported",
        ],
    ),
    entry(
        "MSB4062",
        "Task could not be loaded from its assembly",
        "MSBuild could not load the assembly that implements a task: it is missing, built for another runtime, or one of its dependencies is missing.",
        &[
            "Restore packages so that the task assembly exists",
            "Check that the task supports the .NET MSBuild used by the dotnet CLI",
            "Update the package or SDK that provides the task",
        ],
    ),
    entry(
        "MSB4236",
        "The SDK specified could not be found",
        "The project's Sdk (for example Microsoft.NET.Sdk.Web) cannot be resolved: the .NET SDK, a workload or an MSBuild SDK package is missing, or global.json pins an SDK that is not installed.",
        &[
            "List the installed SDKs: dotnet --list-sdks",
            "Install the SDK that global.json asks for, or update global.json",
            "Check the spelling of the Sdk attribute",
        ],
    ),
    // --- NuGet ----------------------------------------------------------------------------
    entry(
        "NU1015",
        "PackageReference without a version",
        "A PackageReference item has no Version and the project does not use central package management; since the .NET 10 SDK this is an error (it was the NU1604 warning), because NuGet would otherwise pick the lowest version available.",
        &[
            "Add a version: <PackageReference Include=\"<id>\" Version=\"<version>\" />, or dotnet package add <id> --version <version>",
            "Or manage versions centrally: ManagePackageVersionsCentrally in Directory.Packages.props with a PackageVersion item per package",
        ],
    ),
    entry(
        "NU1100",
        "Unable to resolve a dependency",
        "No version of a dependency that satisfies the requested range was found in the configured sources for the target framework.",
        &[
            "Check the configured sources: dotnet nuget list source",
            "Check the package id and the requested version range",
            "Add the source that hosts the package",
        ],
    ),
    entry(
        "NU1101",
        "Package not found",
        "No package with this id exists in any of the configured package sources.",
        &[
            "Check the spelling of the package id",
            "Search for the package: dotnet package search <name>",
            "Check the configured sources: dotnet nuget list source",
        ],
    ),
    entry(
        "NU1102",
        "Package version not found",
        "The package exists, but no version in the requested range is available in the configured sources.",
        &[
            "List the available versions: dotnet package search <id> --exact-match",
            "Request a version that exists",
            "Add the source that hosts the requested version",
        ],
    ),
    entry(
        "NU1103",
        "Only prerelease versions found",
        "A stable version was requested, but the sources only have prerelease versions in the requested range.",
        &[
            "Request a prerelease version explicitly (or use dotnet add package <id> --prerelease)",
            "Wait for a stable release, or pick an older stable version",
        ],
    ),
    entry(
        "NU1106",
        "Unable to satisfy conflicting version requests",
        "Projects or packages ask for ranges of the same package that do not overlap, so no single version satisfies them all.",
        &[
            "Align the requested versions across projects",
            "Reference the package directly at a version that satisfies every consumer",
            "Update the packages that pin the old range",
        ],
    ),
    entry(
        "NU1107",
        "Version conflict detected",
        "Two dependencies need incompatible versions of the same package and NuGet cannot choose one by itself.",
        &[
            "Reference the package directly, at the version that satisfies both",
            "Update the packages that depend on the older version",
            "Align versions with Central Package Management",
        ],
    ),
    entry(
        "NU1201",
        "Referenced project is not compatible with this project's framework",
        "A project references another project whose target frameworks are not compatible with its own.",
        &[
            "Make the referenced project target a compatible framework (multi-target if needed)",
            "Raise the referencing project's target framework",
            "Target netstandard2.0 for libraries shared by many frameworks",
        ],
    ),
    entry(
        "NU1202",
        "Package is not compatible with the project's framework",
        "The package has no assets for the project's target framework.",
        &[
            "Use a package version that supports your target framework",
            "Change the project's target framework",
            "Check the frameworks the package supports on nuget.org",
        ],
    ),
    entry(
        "NU1213",
        "Package type is incompatible with this project",
        "The package is a .NET tool or platform package, which cannot be used as a PackageReference.",
        &[
            "Install a tool with 'dotnet tool install' instead",
            "Use a PackageDownload item for platform packages",
            "Remove the PackageReference",
        ],
    ),
    entry(
        "NU1301",
        "Unable to load the service index for a source",
        "A package source could not be reached or refused the request: network, proxy, TLS or authentication failure.",
        &[
            "Check the source URL and network access",
            "Provide credentials for a private feed (credential provider or 'dotnet nuget update source')",
            "Disable an unreachable source: dotnet nuget disable source <name>",
            "Where only a mirror or a local folder is reachable, list just those: a NuGet.Config with <clear/> and its sources, or --source <mirror or folder>",
        ],
    ),
    entry(
        "NU1302",
        "Package source over plain HTTP",
        "A package source uses http:// instead of https://; since the .NET 9 SDK restore refuses it (an error), and on the .NET 10 SDK so do package listing and search.",
        &[
            "Use the source's https:// address in NuGet.Config or --source",
            "If the source can only be reached over HTTP and is trusted, allow it explicitly: allowInsecureConnections=\"true\" on its <add> in NuGet.Config",
        ],
    ),
    entry(
        "NU1403",
        "Package content hash validation failed",
        "In locked-mode restore, a package's content differs from the hash recorded in packages.lock.json.",
        &[
            "Clear the local caches: dotnet nuget locals all --clear",
            "Regenerate the lock file: dotnet restore --force-evaluate",
            "Check that every source serves the same package bits",
        ],
    ),
    entry(
        "NU1510",
        "PackageReference the target framework already provides",
        "The project references a package that its target framework already contains, so the SDK prunes it (.NET 10 SDK): the direct reference is unnecessary and will not be used.",
        &[
            "Remove the PackageReference (dotnet package remove <id>), or keep it only for older target frameworks with a Condition on $(TargetFramework)",
            "To keep it on purpose, suppress the warning for that reference: NoWarn=\"NU1510\" on the PackageReference",
        ],
    ),
    entry(
        "NU1603",
        "Dependency resolved to a higher version than requested",
        "A package's minimum dependency version was not found, so NuGet resolved the nearest higher version instead.",
        &[
            "Reference the resolved version directly to make the choice explicit",
            "Update the package that declares the dependency",
            "Check for an incomplete or misconfigured feed",
        ],
    ),
    entry(
        "NU1605",
        "Detected package downgrade",
        "The project references a lower version of a package than one of its dependencies requires; this is an error by default.",
        &[
            "Reference the higher version that the dependency requires",
            "Remove the direct reference to the lower version",
            "Align versions with Central Package Management",
        ],
    ),
    entry(
        "NU1608",
        "Package version is outside a dependency constraint",
        "A resolved package version is above the upper bound that a dependency declared for it.",
        &[
            "Update the package that declares the constraint",
            "Reference a version inside the allowed range",
            "Test the combination before suppressing the warning",
        ],
    ),
    entry(
        "NU1701",
        "Package restored for .NET Framework instead of the project's framework",
        "The package has no assets for the project's framework, so NuGet fell back to .NET Framework assets that may not work.",
        &[
            "Find a package version or alternative that supports the project's framework",
            "Test the features that use the package",
            "Suppress with NoWarn on that PackageReference only once verified",
        ],
    ),
    entry(
        "NU1900",
        "Vulnerability data could not be read",
        "NuGet Audit could not get the vulnerability data from a package source (the source does not answer, or a mirror does not serve it), so packages were not checked for known vulnerabilities.",
        &[
            "Check that the sources answer: dotnet nuget list source",
            "Audit against a source that serves vulnerability data: a NuGetAuditSource in NuGet.Config (nuget.org by default)",
            "Where no such source is reachable, switch auditing off knowingly: <NuGetAudit>false</NuGetAudit>",
        ],
    ),
    audit(
        "NU1901",
        "Package has a known low severity vulnerability",
        "NuGet Audit found a published low-severity security advisory for the resolved package version (the .NET 10 SDK audits transitive packages too).",
    ),
    audit(
        "NU1902",
        "Package has a known moderate severity vulnerability",
        "NuGet Audit found a published moderate-severity security advisory for the resolved package version (the .NET 10 SDK audits transitive packages too).",
    ),
    audit(
        "NU1903",
        "Package has a known high severity vulnerability",
        "NuGet Audit found a published high-severity security advisory for the resolved package version (the .NET 10 SDK audits transitive packages too).",
    ),
    audit(
        "NU1904",
        "Package has a known critical severity vulnerability",
        "NuGet Audit found a published critical-severity security advisory for the resolved package version (the .NET 10 SDK audits transitive packages too).",
    ),
    entry(
        "NU1905",
        "Audit source serves no vulnerability data",
        "A source named as a NuGetAuditSource does not provide vulnerability data, so it adds nothing to NuGet Audit.",
        &[
            "Remove it from the audit sources, or name one that serves vulnerability data (nuget.org)",
            "Check which sources NuGet Audit uses: the <auditSources> section of NuGet.Config",
        ],
    ),
    // --- .NET SDK -------------------------------------------------------------------------
    entry(
        "NETSDK1004",
        "Assets file not found",
        "obj/project.assets.json does not exist because the project was not restored, or its restore failed.",
        &[
            "Restore the project: dotnet restore",
            "Look for restore errors earlier in the output",
            "Do not pass --no-restore on a fresh clone",
        ],
    ),
    entry(
        "NETSDK1005",
        "Assets file has no target for the framework",
        "The last restore did not include the target framework being built, for example after TargetFramework was changed.",
        &[
            "Restore again: dotnet restore",
            "Check that the framework is listed in TargetFramework(s)",
            "Delete the obj folder and restore if the problem persists",
        ],
    ),
    entry(
        "NETSDK1013",
        "TargetFramework value was not recognized",
        "The TargetFramework value is misspelled or unknown to this SDK.",
        &[
            "Check the framework moniker (net10.0, net8.0, netstandard2.0 ...)",
            "Use TargetFrameworks (plural) to list several frameworks",
            "Install a newer SDK if the framework is newer than this one",
        ],
    ),
    entry(
        "NETSDK1022",
        "Duplicate items were included",
        "The SDK includes Compile, EmbeddedResource and None items by default, and the project includes some of the same files again explicitly.",
        &[
            "Remove the explicit items that duplicate the default globs",
            "Set EnableDefaultCompileItems (or EnableDefaultItems) to false to list items yourself",
            "Use Update instead of Include to change metadata of default items",
        ],
    ),
    entry(
        "NETSDK1045",
        "The current .NET SDK does not support the target framework",
        "The project targets a .NET version newer than the installed (or global.json-selected) SDK can build.",
        &[
            "Install a newer .NET SDK",
            "Lower the project's target framework",
            "Check that global.json does not pin an older SDK: dotnet --list-sdks",
        ],
    ),
    entry(
        "NETSDK1047",
        "Assets file has no target for the framework and runtime identifier",
        "The project was restored without the runtime identifier that is now being built or published.",
        &[
            "Restore for that runtime: dotnet restore -r <rid>",
            "Add the runtime identifier to RuntimeIdentifiers in the project",
            "Do not pass --no-restore when changing -r",
        ],
    ),
    entry(
        "NETSDK1064",
        "Package was not found in the packages folder",
        "A package recorded by the last restore is missing from the global packages folder, usually because the cache was cleared after restore.",
        &[
            "Restore again: dotnet restore",
            "Check the NUGET_PACKAGES variable or globalPackagesFolder setting",
            "Do not clear NuGet caches between restore and build",
        ],
    ),
    entry(
        "NETSDK1082",
        "No runtime pack for the runtime identifier",
        "No runtime pack exists for this combination of framework and runtime identifier, for example an unsupported or misspelled RID.",
        &[
            "Check the runtime identifier (linux-x64, win-x64, osx-arm64 ...)",
            "Use a portable runtime identifier supported by the framework",
        ],
    ),
    entry(
        "NETSDK1083",
        "RuntimeIdentifier was not recognized",
        "The runtime identifier is unknown to the SDK; since .NET 8 only portable identifiers are known by default.",
        &[
            "Use a portable identifier such as linux-x64, win-x64 or osx-arm64",
            "Check the spelling of -r / RuntimeIdentifier",
        ],
    ),
    entry(
        "NETSDK1100",
        "Windows is required to build a Windows desktop application",
        "A project that targets Windows (WPF, Windows Forms or a -windows framework) is built on another operating system.",
        &[
            "Set <EnableWindowsTargeting>true</EnableWindowsTargeting> to build it on Linux or macOS",
            "Build it on Windows",
            "Remove the -windows target framework if it is not needed",
        ],
    ),
    entry(
        "NETSDK1138",
        "Target framework is out of support",
        "The project targets a .NET version that no longer receives security updates.",
        &[
            "Retarget to a supported version such as net8.0 or net10.0",
            "Set CheckEolTargetFramework to false only if you must stay on it",
        ],
    ),
    entry(
        "NETSDK1141",
        "Unable to resolve the SDK version in global.json",
        "global.json asks for an SDK version that is not installed, and its roll-forward policy accepts none of the installed ones.",
        &[
            "List the installed SDKs: dotnet --list-sdks",
            "Install the SDK version that global.json asks for",
            "Update the version or rollForward setting in global.json",
        ],
    ),
    entry(
        "NETSDK1152",
        "Multiple publish output files with the same relative path",
        "Two items would be published to the same path, for example an appsettings.json coming from two projects.",
        &[
            "Rename or exclude one of the conflicting files",
            "Set CopyToPublishDirectory to Never on one of them",
            "Set ErrorOnDuplicatePublishOutputFiles to false only if the overwrite is intended",
        ],
    ),
    // --- test runner mode (codeless SDK errors, see MESSAGE_CODES) -------------------------
    CodeInfo {
        shared_page: Some(
            "https://learn.microsoft.com/en-us/dotnet/core/testing/microsoft-testing-platform-integration-dotnet-test",
        ),
        ..entry(
            "TEST_RUNNER_MISMATCH",
            "Test project and dotnet test runner mode disagree",
            "dotnet test runs every project of a folder in one mode: VSTest, or Microsoft.Testing.Platform when the nearest global.json says so. A project on Microsoft.Testing.Platform v2 (xUnit v3, MSTest 4, TUnit) cannot run under VSTest on the .NET 10 SDK, and under Microsoft.Testing.Platform every project must be one (a VSTest project such as xUnit v2 with xunit.runner.visualstudio is refused).",
            &[
                "For Microsoft.Testing.Platform projects, select it in the nearest global.json: {\"test\": {\"runner\": \"Microsoft.Testing.Platform\"}} (dotnet_sdk ConfigureGlobalJson), then run Test again",
                "For a VSTest project under such a global.json, move it to a folder without that setting, or migrate it to the framework's Microsoft.Testing.Platform package (xunit.v3.mtp-v2, MSTest 4)",
            ],
        )
    },
    // --- dotnet format (ids without digits) ------------------------------------------------
    CodeInfo {
        shared_page: Some(FORMAT_PAGE),
        ..entry(
            "CHARSET",
            "File encoding differs from .editorconfig",
            "dotnet format --verify-no-changes found a file whose character set differs from the charset that .editorconfig asks for.",
            &[
                "Apply the fix: dotnet format whitespace <project> (or dotnet format without --verify-no-changes)",
                "Check the .editorconfig settings behind it; dotnet format applies the rules of the nearest .editorconfig",
            ],
        )
    },
    CodeInfo {
        shared_page: Some(FORMAT_PAGE),
        ..entry(
            "FINALNEWLINE",
            "Final newline missing or extra",
            "dotnet format --verify-no-changes found a file whose end does not follow .editorconfig's insert_final_newline.",
            &[
                "Apply the fix: dotnet format whitespace <project> (or dotnet format without --verify-no-changes)",
                "Check the .editorconfig settings behind it; dotnet format applies the rules of the nearest .editorconfig",
            ],
        )
    },
    CodeInfo {
        shared_page: Some(FORMAT_PAGE),
        ..entry(
            "IMPORTS",
            "Using directives out of order",
            "dotnet format --verify-no-changes found using directives that are not sorted or grouped as .editorconfig asks (dotnet_sort_system_directives_first, dotnet_separate_import_directive_groups).",
            &[
                "Apply the fix: dotnet format style <project> (or dotnet format without --verify-no-changes)",
                "Check the .editorconfig settings behind it; dotnet format applies the rules of the nearest .editorconfig",
            ],
        )
    },
    CodeInfo {
        shared_page: Some(FORMAT_PAGE),
        ..entry(
            "WHITESPACE",
            "Whitespace formatting",
            "dotnet format --verify-no-changes found indentation, spacing or line breaks that differ from the formatting rules (the message says what to insert or delete).",
            &[
                "Apply the fix: dotnet format whitespace <project> (or dotnet format without --verify-no-changes)",
                "Check the .editorconfig settings behind it; dotnet format applies the rules of the nearest .editorconfig",
            ],
        )
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::errors::ErrorCategory;
    use std::collections::HashSet;

    /// The 52 codes the reference server ships, all of which must be here.
    const REFERENCE_CODES: [&str; 52] = [
        "CS0103",
        "CS0246",
        "CS1001",
        "CS1002",
        "CS1513",
        "CS0116",
        "CS0234",
        "CS1061",
        "CS0029",
        "CS8600",
        "CS0120",
        "CS0019",
        "CS0119",
        "CS0128",
        "CS1503",
        "CS7036",
        "CS0539",
        "CS0188",
        "CS0165",
        "CS0122",
        "CS0161",
        "CS0115",
        "CS0507",
        "MSB3644",
        "MSB4236",
        "MSB1003",
        "MSB3202",
        "MSB4019",
        "MSB4062",
        "MSB3073",
        "MSB3275",
        "MSB3321",
        "MSB3277",
        "NU1101",
        "NU1102",
        "NU1103",
        "NU1605",
        "NU1213",
        "NU1107",
        "NU1201",
        "NU1403",
        "NU1106",
        "NU1603",
        "NETSDK1045",
        "NETSDK1004",
        "NETSDK1005",
        "NETSDK1022",
        "NETSDK1013",
        "NETSDK1141",
        "NETSDK1064",
        "NETSDK1082",
        "NETSDK1100",
    ];

    #[test]
    fn covers_every_reference_code() {
        for code in REFERENCE_CODES {
            assert!(lookup(code).is_some(), "{code} missing");
        }
        assert!(all().len() >= REFERENCE_CODES.len());
    }

    #[test]
    fn lookup_ignores_case_and_rejects_unknown_codes() {
        assert_eq!(lookup("nu1101").map(|i| i.code), Some("NU1101"));
        assert_eq!(lookup("Cs0103").map(|i| i.code), Some("CS0103"));
        assert_eq!(lookup("CS9999"), None);
        assert_eq!(lookup(""), None);
    }

    #[test]
    fn entries_are_unique_complete_and_sorted_within_family() {
        let mut seen = HashSet::new();
        for info in all() {
            assert!(seen.insert(info.code), "{} twice", info.code);
            assert!(!info.title.is_empty() && !info.explanation.is_empty(), "{}", info.code);
            assert!(info.suggested_fixes.len() >= 2, "{} needs fixes", info.code);
            assert_ne!(ErrorCategory::from_code(info.code), ErrorCategory::Unknown, "{}", info.code);
            let url = info.documentation_url().expect("documented");
            assert!(url.starts_with("https://learn.microsoft.com/en-us/"), "{url}");
        }
        for pair in all().windows(2) {
            let family = |c: &str| c.trim_end_matches(|ch: char| ch.is_ascii_digit()).to_owned();
            if family(pair[0].code) == family(pair[1].code) {
                assert!(pair[0].code < pair[1].code, "{} before {}", pair[0].code, pair[1].code);
            }
        }
    }

    #[test]
    fn documentation_urls_follow_learn_patterns() {
        let url = |code: &str| lookup(code).and_then(CodeInfo::documentation_url);
        assert_eq!(
            url("CS0103").as_deref(),
            Some("https://learn.microsoft.com/en-us/dotnet/csharp/language-reference/compiler-messages/cs0103")
        );
        assert_eq!(
            url("MSB3644").as_deref(),
            Some("https://learn.microsoft.com/en-us/visualstudio/msbuild/errors/msb3644")
        );
        assert_eq!(
            url("NU1101").as_deref(),
            Some("https://learn.microsoft.com/en-us/nuget/reference/errors-and-warnings/nu1101")
        );
        assert_eq!(
            url("NETSDK1045").as_deref(),
            Some("https://learn.microsoft.com/en-us/dotnet/core/tools/sdk-errors/netsdk1045")
        );
        assert_eq!(url("CS8618").as_deref(), Some(NULLABLE_WARNINGS_PAGE));
        assert_eq!(
            documentation_url("IDE0005").as_deref(),
            Some("https://learn.microsoft.com/en-us/dotnet/fundamentals/code-analysis/style-rules/ide0005")
        );
        assert_eq!(documentation_url("xUnit1004"), None);
        assert_eq!(documentation_url("EXIT_1"), None);
        assert_eq!(documentation_url("MSB"), None);
    }
}
