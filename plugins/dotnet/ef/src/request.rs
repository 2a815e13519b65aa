//! One call's parameters, checked ([`Request`]), and the argument vector they make: the
//! positionals of the command, then the common options, then the flags, `--prefix-output`
//! always (so the tool's own lines can be told from the app's console output, see
//! [`crate::parse`]), `--json` last where the command has it.

use dotnet_support::{
    errors::ErrorResponse,
    kit::Split,
    params::{Kind, Params},
};

use crate::{Action, MAX_NAMES};

/// One call's checked parameters.
pub struct Request<'a> {
    pub action: Action,
    pub startup_project: Option<&'a str>,
    pub context: Option<&'a str>,
    pub framework: Option<&'a str>,
    pub no_build: bool,
    pub name: Option<&'a str>,
    pub output_dir: Option<&'a str>,
    pub from: Option<&'a str>,
    pub to: Option<&'a str>,
    pub output: Option<&'a str>,
    pub idempotent: bool,
    pub migration: Option<&'a str>,
    pub connection: Option<&'a str>,
    pub no_connect: bool,
    pub provider: Option<&'a str>,
    pub context_dir: Option<&'a str>,
    pub tables: Vec<&'a str>,
    pub schemas: Vec<&'a str>,
    pub use_database_names: bool,
    pub force: bool,
    pub dry_run: bool,
}

impl<'a> Request<'a> {
    /// Reads and checks every parameter `action` takes (the kit has made sure that the ones it
    /// requires are there, and that it was given no other).
    pub fn read(action: Action, params: &Params<'a>) -> Result<Self, ErrorResponse> {
        let names = |name: &str| params.list(name, Kind::Text, Split::Commas, MAX_NAMES);
        Ok(Self {
            action,
            startup_project: params.opt("startupProject", Kind::ProjectPath)?,
            context: params.opt("context", Kind::Identifier)?,
            framework: params.opt("framework", Kind::Framework)?,
            no_build: params.flag("noBuild"),
            name: params.opt("name", Kind::Identifier)?,
            output_dir: params.opt("outputDir", Kind::Path)?,
            from: params.opt("from", Kind::Identifier)?,
            to: params.opt("to", Kind::Identifier)?,
            output: params.opt("output", Kind::Path)?,
            idempotent: params.flag("idempotent"),
            migration: params.opt("migration", Kind::Identifier)?,
            connection: params.opt("connection", Kind::Text)?,
            no_connect: params.flag("noConnect"),
            provider: params.opt("provider", Kind::PackageId)?,
            context_dir: params.opt("contextDir", Kind::Path)?,
            tables: names("tables")?,
            schemas: names("schemas")?,
            use_database_names: params.flag("useDatabaseNames"),
            force: params.flag("force"),
            dry_run: params.flag("dryRun"),
        })
    }

    /// Whether the action changes the project or the database, and so takes the project lock.
    pub fn mutates(&self) -> bool {
        match self.action {
            Action::MigrationsAdd
            | Action::MigrationsRemove
            | Action::MigrationsScript
            | Action::DatabaseUpdate
            | Action::DbContextScaffold => true,
            Action::DatabaseDrop => !self.dry_run,
            Action::MigrationsList | Action::DbContextList | Action::DbContextInfo => false,
        }
    }

    /// The argument vector after `dotnet`.
    pub fn argv(&self, project: Option<&str>) -> Vec<String> {
        let mut argv: Vec<String> = vec!["ef".into()];
        let mut push = |items: &[&str]| argv.extend(items.iter().map(|item| (*item).to_owned()));
        match self.action {
            Action::MigrationsAdd => push(&["migrations", "add", self.name.unwrap_or_default()]),
            Action::MigrationsList => push(&["migrations", "list"]),
            Action::MigrationsRemove => push(&["migrations", "remove"]),
            Action::MigrationsScript => {
                push(&["migrations", "script"]);
                match (self.from, self.to) {
                    (Some(from), Some(to)) => push(&[from, to]),
                    (Some(from), None) => push(&[from]),
                    (None, Some(to)) => push(&["0", to]),
                    (None, None) => {}
                }
            }
            Action::DatabaseUpdate => {
                push(&["database", "update"]);
                push(self.migration.as_slice());
            }
            Action::DatabaseDrop => push(&["database", "drop"]),
            Action::DbContextList => push(&["dbcontext", "list"]),
            Action::DbContextInfo => push(&["dbcontext", "info"]),
            Action::DbContextScaffold => {
                push(&["dbcontext", "scaffold", self.connection.unwrap_or_default(), self.provider.unwrap_or_default()])
            }
        }
        let options = [
            ("--project", project),
            ("--startup-project", self.startup_project),
            ("--context", self.context),
            ("--framework", self.framework),
            ("--output-dir", self.output_dir),
            ("--context-dir", self.context_dir),
            ("--output", self.output),
        ];
        for (option, value) in options {
            if let Some(value) = value {
                argv.extend([option.to_owned(), value.to_owned()]);
            }
        }
        if self.action != Action::DbContextScaffold
            && let Some(connection) = self.connection
        {
            argv.extend(["--connection".to_owned(), connection.to_owned()]);
        }
        for (option, values) in [("--table", &self.tables), ("--schema", &self.schemas)] {
            for value in values {
                argv.extend([option.to_owned(), (*value).to_owned()]);
            }
        }
        let flags = [
            ("--no-connect", self.no_connect),
            ("--idempotent", self.idempotent),
            ("--use-database-names", self.use_database_names),
            ("--dry-run", self.action == Action::DatabaseDrop && self.dry_run),
            ("--force", self.passes_force()),
            ("--no-build", self.no_build),
            ("--prefix-output", true),
            ("--json", self.uses_json()),
        ];
        argv.extend(flags.into_iter().filter(|(_, on)| *on).map(|(flag, _)| flag.to_owned()));
        argv
    }

    /// `--force`: always for a confirmed drop (the CLI would otherwise ask on its stdin), else as
    /// the caller asked (reached only once a destructive action is confirmed or cannot be asked).
    fn passes_force(&self) -> bool {
        match self.action {
            Action::DatabaseDrop => !self.dry_run,
            Action::MigrationsRemove | Action::DbContextScaffold => self.force,
            Action::MigrationsAdd
            | Action::MigrationsList
            | Action::MigrationsScript
            | Action::DatabaseUpdate
            | Action::DbContextList
            | Action::DbContextInfo => false,
        }
    }

    /// Whether the command has a `--json` form this plugin reads.
    fn uses_json(&self) -> bool {
        matches!(
            self.action,
            Action::MigrationsAdd | Action::MigrationsList | Action::DbContextList | Action::DbContextInfo
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn request(action: Action, args: Value) -> Vec<String> {
        let params = Params::new(&args);
        Request::read(action, &params).unwrap().argv(Some("App.csproj"))
    }

    #[test]
    fn argument_vectors_put_positionals_first_and_json_last() {
        assert_eq!(
            request(Action::MigrationsAdd, json!({ "name": "Init", "outputDir": "Data/Migrations", "noBuild": true })),
            [
                "ef",
                "migrations",
                "add",
                "Init",
                "--project",
                "App.csproj",
                "--output-dir",
                "Data/Migrations",
                "--no-build",
                "--prefix-output",
                "--json"
            ]
        );
        assert_eq!(
            request(Action::MigrationsScript, json!({ "to": "AddOrders", "idempotent": true })),
            [
                "ef",
                "migrations",
                "script",
                "0",
                "AddOrders",
                "--project",
                "App.csproj",
                "--idempotent",
                "--prefix-output"
            ]
        );
        assert_eq!(
            request(Action::DatabaseDrop, json!({ "dryRun": true, "force": true })),
            ["ef", "database", "drop", "--project", "App.csproj", "--dry-run", "--prefix-output"]
        );
        assert_eq!(
            request(
                Action::DbContextScaffold,
                json!({ "connection": "Data Source=x.db", "provider": "P", "tables": "a, b", "force": true })
            ),
            [
                "ef",
                "dbcontext",
                "scaffold",
                "Data Source=x.db",
                "P",
                "--project",
                "App.csproj",
                "--table",
                "a",
                "--table",
                "b",
                "--force",
                "--prefix-output"
            ]
        );
    }

    #[test]
    fn list_parameters_accept_arrays_and_comma_separated_text() {
        let args = json!({ "tables": ["dbo.Blogs", " ", "Posts"], "schemas": "dbo,sales" });
        let read = Request::read(Action::DbContextScaffold, &Params::new(&args)).ok().unwrap();
        assert_eq!((read.tables, read.schemas), (vec!["dbo.Blogs", "Posts"], vec!["dbo", "sales"]));
        let empty = json!({});
        let none = Request::read(Action::DbContextScaffold, &Params::new(&empty)).ok().unwrap();
        assert!(none.tables.is_empty());
        for bad in [json!({ "tables": [1] }), json!({ "tables": ["--force"] })] {
            assert!(Request::read(Action::DbContextScaffold, &Params::new(&bad)).is_err(), "{bad}");
        }
    }
}
