//! Secret redaction: replace every secret in text, argument vectors and JSON with [`REDACTED`]
//! before anything reaches a client, while keeping the non-secret part of each form visible.
//!
//! Two layers. First the secret values this machine is known to hold ([`known`], learned by
//! [`learn`]: user secrets, secret-named environment variables, NuGet.Config passwords, `.pgpass`
//! and `.netrc`), found exactly, with their encodings, wherever they appear. Then the patterns of
//! the forms secrets take, described below, for the secrets nobody could know in advance.
//!
//! Text is first read once by the forms' alternation: most output holds no match, and is left as
//! it is after that one pass. Text with a match is scanned by one [`regex::Regex`] per form,
//! their matches merged as the forms' alternation would match (the leftmost match; of the forms that start there, the first listed),
//! and rewritten match by match. The `regex` crate runs each search in time linear in what it
//! reads, and a form that would read the same text again and again hands the rest of it to the
//! forms' alternation (`patterns::Combined`), so neither huge nor hostile output can stall
//! redaction. When two forms could start at
//! the same place, the one listed first wins, so the more specific forms come first. The forms that need context
//! (the short options of some commands, `user-secrets set K V`) match the rest of their line as
//! one command-line segment; its arguments are classified like [`redact_args`] does and the text
//! between the secrets gets the same context-free pass, so every byte is still scanned once. A
//! match that turns out not to be secret (`bypass=`, `TokenLifetimeMinutes: 60`) keeps its label
//! and has its value scanned again, so a token inside it is still caught. A few forms span two
//! lines (a YAML name and its value, an `expect` prompt and its answer, `terraform output NAME`
//! and the value); [`LineRedactor`] sees them by redacting such a pair of lines together.
//!
//! The code is split by class of form, one module each: `keys` (which names say secret), `tokens`
//! (tokens known by their shape), `connection` (URLs and connection strings), `labelled` (a value
//! under a label), `tables` (rows judged by their column or name), `cli` (command lines and
//! argument vectors), `prose` (free text and other languages), `stand_in` (what only stands in
//! for a secret), `hexdump` (dumped bytes); `patterns` holds the combined pattern, `replace` what
//! each of its matches becomes, and `lines` the line redactor. This module keeps the entry points.
//!
//! Forms covered (each keeps its label, key, scheme or quotes):
//! - labelled secrets in `key=value`, `key: value`, JSON, YAML and connection strings, with no
//!   minimum length. A key is secret when its name contains a secret word (`password`, `secret`,
//!   `token`, `api_key`, `AccountKey`...), ends in `pwd`, `pass`, `pat`, `pword` or `pw` after a
//!   separator or a case change (`DB_PWD`, `SMTP_PASS`, `smtpPass`, `userPWD`, `ADO_PAT`), or
//!   names a session (`ASP.NET_SessionId`); it is not when a describing word ends it
//!   (`TokenLifetimeMinutes`, `PASSWORD_FILE`, `SecretName`, `SecurityTokenExpiredException`).
//!   Under weaker labels (`*_KEY`, `Credential`, `Signature`) a value is a secret when it looks
//!   generated (a strong-name public key does not count), and so is a key-like JSON `"value"`
//!   (`az ... keys list`, in text and in structured content). A key that names a connection
//!   string (`ConnectionStrings__Default`) has the parts of its value judged one by one, so a
//!   connection string without credentials stays whole;
//! - values that only stand in for a secret stay under any label: empty, already masked (`***`,
//!   `*`, `(sensitive value)`), references (`${DB_PASSWORD}`, `$(DbPassword)`,
//!   `@Microsoft.KeyVault(...)`) and placeholders (`<your-api-key>`);
//! - name/value pairs: `{"name": "Smtp__Password", ..., "value": "..."}` in JSON, `- name: X` /
//!   `value: ...` in YAML (Kubernetes env lists), and Terraform's `"sensitive": true` outputs;
//! - the signing key printed by `dotnet user-jwts key` (`Signing Key: '...'`);
//! - `NAME   value` rows of a table whose name has a secret word (PowerShell's
//!   `Get-ChildItem env:`, `vault login`, `CLIENT SECRET   ...`), but not `kubectl describe
//!   secret`'s sizes (`DB_PASSWORD:  18 bytes`);
//! - the value Terraform prints on the line after `terraform output [-raw|-json] NAME`, and the
//!   answer an `expect` script `send`s to a password or passphrase prompt;
//! - the values of a `Cookie:` header and the value of `Set-Cookie:` (its attributes stay), but
//!   not the constant `N` of ASP.NET Core's correlation and nonce marker cookies;
//! - `scheme://user:password@host` and `scheme://TOKEN@host` URL credentials (a Sentry DSN, a
//!   personal access token as user name), and generated-looking `code=` / `appid=` query
//!   parameters (Azure Functions keys, OAuth codes, OpenWeather ids);
//! - `Authorization: Bearer|Basic|SSWS|SharedKey ...` headers and bare `Bearer <token>`;
//! - the browser token of an Aspire dashboard login link (`/login?t=...`);
//! - PEM private-key blocks (also when cut off before the `END` line), JWTs and JWEs;
//! - tokens known by their shape: ASP.NET Core Data Protection payloads (`CfDJ8...`: the
//!   authentication, session and antiforgery cookies and tokens), GitHub, GitLab, Slack, Stripe,
//!   npm, NuGet, Google (API keys, OAuth client secrets, access and refresh tokens), AWS (access
//!   key ids, session tokens), SendGrid, OpenAI and Anthropic (`sk-`), Hugging Face, Docker Hub,
//!   JFrog, Octopus Deploy, New Relic, Sentry, Shopify, PyPI, SonarQube, Postman, Grafana,
//!   DigitalOcean, HashiCorp Vault, Azure AD client secrets, Slack and Discord webhook URLs,
//!   Telegram bot tokens, Firebase Cloud Messaging server keys;
//! - options whose value is secret in any tool: every `--option` or `-Option` whose name ends
//!   in a secret word (`--password`, `-Password`, `--api-key`, `-ApiKey`, `--client-secret`,
//!   `--sas-token`, `--certificate-password`, `-storepass`...) and `--connection`;
//! - options that are secret in one command only: `-p` of `dev-certs https`, of `nuget add|update
//!   source` and of every `login` (docker, podman, helm registry, az acr, az...), `-k`/`-sk` of
//!   `nuget push|delete`, `-P` of `sqlcmd`, `/p` of `signtool sign` (also run by its full path),
//!   `-P`/`-N` of `ssh-keygen`, `-pw` of PuTTY's `plink`, `pscp` and `psftp`, `-String` or the
//!   first positional of PowerShell's `ConvertTo-SecureString`, the attached `-pPASSWORD` of
//!   `mysql`, the password of `curl -u user:password`, `--value` of `keyvault secret set`,
//!   `--body` of `secret set`, and the VALUE of `user-secrets set KEY VALUE`;
//! - the value of `user-secrets set`'s `Successfully saved KEY = VALUE to the secret store.`
//!   message. A `KEY = VALUE` line (what `dotnet user-secrets list` prints without `--json`) is
//!   judged by its key like any label, in every output: `Smtp:Password = x` is secret,
//!   `TargetFramework = net10.0` (`dotnet msbuild -getProperty`) is not. The values of user
//!   secrets under other keys are hidden by the known-value layer, which learns every store of
//!   the user, so no rule needs to know which command printed a line;
//! - NuGet.Config `<add key="ClearTextPassword" value="..."/>` and `<Password>...</Password>`;
//!   any XML element whose `key` or `name` attribute names a secret, its attributes in any order,
//!   and elements (MSBuild properties) named for a secret (`<DeployPwd>`);
//! - labels in other languages' dumps: Python dicts, PHP arrays (`'password' => ...`, `print_r`'s
//!   `[password] => ...`, `var_dump`'s value on the next line), Ruby hashes (`:password=>`), Rust
//!   `Debug` (`password: Some("...")`), JSON escaped inside a string (`{\"password\":\"...\"}`);
//!   PHP stack frames of functions whose third argument is a password (`PDO->__construct`,
//!   `mysqli_connect`, `ldap_bind`...); free text (`the password is X`, `token X`), where only a
//!   value that does not read as the sentence going on counts;
//! - credential files: `.pgpass` lines, `.netrc` entries, the private lines of a PuTTY key;
//! - authorization schemes with parameters (`Digest ... response="..."`, `OAuth oauth_token=...`,
//!   `Token token="..."`): every parameter but the public ones;
//! - more tools' password options: `bcp -P`, 7-Zip and RAR `-pX`, `zip`/`unzip -P`, openssl's
//!   `-pass`/`-passin`/`-passout pass:X`/`-k`, `net use` and `net user` passwords, `schtasks /rp`,
//!   `cmdkey /pass:`, `psexec -p`, `sqlpackage /tp:`, Windows options ending in a secret word
//!   (`/TargetPassword:`), `smbclient -U user%password`, and settings set by name (`aws configure
//!   set`, `setx`, `npm config set`) whose name says secret; age secret keys.
//!
//! - `name=... value=...` pairs in any quoting outside a tag (runsettings `TestRunParameters`,
//!   TeamCity's `setParameter`), elements named with a weaker word (`<AZURE_STORAGE_KEY>`), EF
//!   Core's logged parameters (`@__password_0='...'`, and values that look generated), `name value`
//!   configuration directives (`requirepass ...`), Oracle's `user/password@db`, keys whose every
//!   line carries a prefix (a CI log's timestamps), JWTs and table values wrapped over lines,
//!   any authorization scheme (`Splunk ...`, `Bot ...`), Teams and Telegram URLs, `admin key X`
//!   in prose, and the word for a password in other languages (`Passwort`, `mot de passe`,
//!   `contraseña`, `пароль`, `密码`...).
//! - from batch 7 of the held-out corpus: Tailscale, Buildkite, Doppler (with its environment)
//!   and LaunchDarkly (`sdk-`/`mob-` GUID) keys; raw hex keys (`PRAGMA key = "x'...'"`, `openssl
//!   enc -K`); SQL `N'...'` literals; values ended by full-width punctuation; "API key" before
//!   its value in other languages; JWTs broken at a column after other words; the line after
//!   cloud CLIs that print a bare secret at a prompt (`aws ecr get-login-password`, `gcloud
//!   secrets versions access`, `az ... keys list -o tsv`); `::add-mask::` echoes; secrets
//!   passed to secret-named constructors (`new Secret("...")`); bare `key=... value=...`
//!   metadata entries (gRPC); MSBuild property reassignments and their previous value; a
//!   secret-named member quoted after its name (`BindPassword '...'`); `&quot;`-quoted values.
//! - from batches 7 and 8: a login method's or test's second string argument
//!   (`SignInAsync("user", "pw")`); `address / password`; a secret-named identifier alone on its
//!   line and a password-like word on the next (`strings`); a secret option as a YAML list item
//!   and its value the next item; Azure Pipelines' debug evaluation of a secret-named variable and
//!   its `Result:`; a JSON array under a secret name, one item a line; a header value broken by a
//!   shell line continuation (a command line goes on over `\` line ends); `\u0026sig=`; a
//!   secret-named parameter URL-encoded in another URL (`%3Ftoken%3D...%26`); a URL password
//!   holding `#`; an AWS access key id and its 40-character secret on one line; `aws
//!   secretsmanager ... --output text`; `-u ID:SECRET`; Mailgun keys; Google authorization codes
//!   (`4/0A`); a key-like `String:` of `dumpobj`; `Signing` as a weak word, `code_verifier` and
//!   `SAMLResponse` as strong ones; `netsh`'s `Key Content` (also German, French, Spanish);
//!   `credential X`, `id_token received: X`; the word for a password right before its value, or a
//!   few words before a `« value »`; ANSI colour codes between a label and its value.
//!   Values whose own names say which part is secret are shown part by part under a secret label
//!   (a SAS query, a connection string given as a password), and a connection string whose first
//!   name has a blank (`Data Source=`) is read whole after a record's `ConnectionString = `. A bare
//!   value ends at a layout's `|` before the next field (NLog), and one glued to the next prompt
//!   (`VALUE$ terraform output ...`) leaves the prompt, its command and that command's output.
//! - from batch 9: a T-SQL `DECLARE @name type = value` (EF Core's `ToQueryString`) as secret as
//!   its name; SQL's `IDENTIFIED [WITH plugin] BY '...'` and literals with doubled quotes inside
//!   dynamic SQL (`N''...''`); data annotations' `'Name' with the error: '...' (value '...')`;
//!   `##vso[task.setvariable variable=NAME]VALUE` as secret as NAME; web servers' header
//!   directives (`header_up X-Api-Key VALUE`, `proxy_set_header`); `--src-creds USER:PASSWORD`
//!   (skopeo, podman); `cqlsh -p`; `sqlplus 'user/"password"@...'`; `Signing Key for issuer '...'
//!   is: '...'` of `dotnet user-jwts key`; an `Api-Token` scheme and Dynatrace tokens (`dt0c01.`);
//!   a weak-named parameter URL-encoded in another URL (`%3Fkey%3D...`); `Value   KEY-LIKE` rows
//!   (`consul kv get -detailed`); YAML `Name:` / `Value:` pairs in either case (PowerShell DSC); a
//!   setting's quoted dotted name (`"Security.Certificate.Password":`) judged by its last part; a
//!   PEM key with escaped line breaks as a labelled value; a YAML flow mapping under a secret name
//!   (`password: { inline_string: "..." }`); the word for a password a few words before a colon
//!   (`Generated password for app: X`, `DB_PASSWORD from environment: X`); `токен доступа X`; a
//!   token in prose ended by a quote; a value glued to the next shell prompt (`VALUEuser@host:~$`);
//!   a JWT wrapped at a console's width after its first dot; a key's body after `echo "-----BEGIN`
//!   line by line; the columns a table's header names secret (pipe tables, CSV); a Terraform
//!   variable named for a secret and its `default` a few attributes down. A bare value
//!   ends where a message in Hangul, kana or CJK starts, an authorization parameter at an escaped
//!   line break (`\r\n`), and openssl's `pass:` stays inside quotes.
//! - from batch 10: the word for a password or "API key" in thirty more languages, also a few
//!   words before the value with the sentence going on after it (`Geslo za SMTP X je poteklo`),
//!   and a token's name a few words before a colon (`SNYK_TOKEN from environment: X`); `--pass`
//!   and options ending in `-pass`; the password options of Redis' forks, `codecovcli -t`, macOS
//!   `security` and `htpasswd -b`; two-factor recovery codes (listed after their name, or one a
//!   line); BitLocker recovery passwords; `klist -K` keys; the value of a `SecureString` or
//!   `CONCEALED` field and of a field named by its `label`; secret managers' commands that print a
//!   bare secret (`Get-Secret -AsPlainText`, `op read`); labels of several words in an aligned
//!   listing (`Secret ID    = X`); `APP.KEY:SECRET` keys; a prefixed token right after an ANSI
//!   colour code; `\/`-escaped JSON; MSBuild items named by `Include`; `signing key X`; Sumo
//!   Logic collector URLs; Python `b'...'` values; `Authorization: key=X`; the user of a
//!   `USER:PASSWORD` secret stays, and a shell's escape before a separator (`\;`, `^&`) ends a
//!   value. Kept: secret managers' references (`op://`, `ref+vault://`), replace-tokens
//!   placeholders (`__Name__`, `#{Name}#`), a token prefix before a placeholder in capitals, a
//!   value that is itself a secret's word (`secretKey: password`), where a secret is stored
//!   (`secretStore`), a key's identifier, what describes a secret-named object (its `type`), the
//!   public key a CI service seals secrets with, AWS's listing of access key ids, `altool`'s key
//!   id, and IdentityModel's `[Security Artifact of type ... is hidden]`.
//! - from batch 10: tokens of vendors no rule names, by their shape (see [`VENDOR_TOKEN`](tokens::VENDOR_TOKEN): a short
//!   prefix of one case, a separator, a random body of 30 or more letters and digits that passes
//!   [`vendor_token`](tokens::vendor_token)'s entropy test: `xai-...`, `gsk_...`, `CFPAT-...`, `os_v2_app_...`), and the
//!   hex or glued tokens of a few named vendors (ElevenLabs' `sk_`, LangSmith, Trello, crates.io,
//!   Airtable, Braintree, Asana, HubSpot); a value in a CDATA section of a secret-named element;
//!   the first line of `pass show NAME`; a random token after the bare word `key` (`rejected key
//!   '...'`), or alone after a blank line under a line that names a key, token or password and
//!   ends with a colon (a mail). A pipe table is read from its first line, so a row that names a
//!   secret is not taken for the header of the rows below it; in a table of names and values
//!   (`| Variable | Value |`), each value is as secret as its row's name.
//! - from batch 11: installer logs (Windows Installer's `PROPERTY CHANGE: Adding NAME property. Its
//!   value is '...'`, WiX Burn's `Setting string variable 'NAME' to value '...'`), `--key NAME
//!   --value VALUE` options and a call's `("NAME", "VALUE")` arguments, each as secret as NAME; a
//!   license key (`MT_LICENSE`, `SyncfusionLicense`) when it looks like a key; the columns that a
//!   header names secret in a table ruled by dashes (`sqlcmd`, `az ... -o table`) and in CSV whose
//!   names have blanks (`Smtp password`); the rows of a box-drawn listing of names and values (a
//!   `key` beside its secret is the key's id); ASP.NET Core Identity's user tokens
//!   (`[AspNetUserStore]|AuthenticatorKey|...`) and an authenticator key in groups of four; the line
//!   after a secret generator (`mix phx.gen.secret`, `rails secret`, `openssl rand -base64`) or a
//!   license or token file shown at a prompt; `&amp;code=`; C#'s `@"..."`; JSON's `primary` and
//!   `secondary` keys; a keys file's values beside a known token; the word for a password in
//!   thirteen more languages. A bare value ends at an encoded `;` (`%3B`) and at an escaped line
//!   break in a JSON string, and a PEM key in structured content keeps its BEGIN and END lines.
//! - from batch 11, where the context says what a value is: ANSI codes before a label's separator
//!   (`grep --color=always`) and before a quoted value after the word `key` (a themed logger); a
//!   row of two cells of a box-drawn table (a Nushell record, `sqlite3 -box`), the value as secret
//!   as the name beside it, its column keeping its width; an element named by its `name`
//!   attribute whose `<value>` child holds the value (`.resx`, `App.config` settings); a secret
//!   option and its value as consecutive quoted items of a list (strace's `execve` argv); a call
//!   that sets a named value (Aspire's `WithEnvironment("X_API_KEY", "...")`,
//!   `SetEnvironmentVariable`, a default request header); a bare value folded by `sed -n l` (a `\`
//!   glued to its end); a token qualified by its deployment (`prod:name|...`); the bytes of a
//!   secret in a `hexdump -C` dump, read as the text they dump. `cat -A`'s `^M$` after a value
//!   stays.
//! - from batch 13: a PEM key printed after a command that prints a bare secret (a decoded
//!   `tls.key`), taken whole; a short value typed as a password (both cases, digits and one of
//!   `~ ^ ! # * ?`) under a weak label (`Jwt__Key=...`); names ending in `sas` and Graph's
//!   `clientState`; `Signing Key for issuer 'X': '...'`; the value a few words after a secret's
//!   quoted name and a colon (`Parameter 'db-password' resolved from configuration: X`); the line
//!   an `echo` of a secret-named variable prints, its value found by the echo's own text; DPAPI
//!   data by its header (NuGet.Config `<apikeys>`); the values of secret-named columns by position
//!   (`INSERT INTO t (...) VALUES (...)`, EF Core's `InsertData` `columns:` / `values:`).
//! - from batch 14: the `Value` of each row of a table ruled by dashes whose `KeyName` column says
//!   the rows are keys (`az storage account keys list -o table`, also its `-o tsv` rows); each
//!   member of a JSON object named for keys, whatever its name (`az functionapp keys list`'s
//!   `functionKeys` and `systemKeys`), in text, line by line and in structured content; after
//!   the bare word `key` in a sentence, a random key of 20 to 29 letters and digits too (Seq's API
//!   keys: `Configured Seq client with key X`), but not a name in CamelCase with a number.
//!
//! Not secret, and kept: configuration key paths used as names (`ConnectionStrings:Default`),
//! qualified .NET names and test names written as sentences before a message
//! (`Tests.Auth.Password_is_hashed: ...`), paths under a secret label (`/run/secrets/db`), stand-ins
//! (see `STAND_IN`), and the neighbours of every value (a bare value never takes the `,`, `)`,
//! `]` or `}` that closes what holds it, nor the options that follow it in its list:
//! `password=x,ssl=True`). Also kept: references to a secret kept elsewhere (`existingSecret`,
//! `adminPasswordKey`, `secretKeyRef`), rules about one (`PasswordTooShort`), token counts
//! (`prompt_tokens`) and lifetimes (`expires_in`), already masked values (`sk-...redacted`,
//! `(not set)`), booleans, shell and CI variables (`$TOKEN`, `%vault:...%`), options named in
//! prose or help text, analytics and consent cookies, AWS resource names and the SigV4
//! credential scope; a connection string is judged part by part, also one nested inside it.
//! So are other tools' masks (`***REDACTED***`, a URL's `build:****@`), SQL parameters standing
//! for a value (`@p1`), Helm references with their braces, detect-secrets' `hashed_secret`, a
//! strong name's public key token, Aspire's `{x.bindings.tcp.host}` references and npm's own
//! `npm_config_*` names; also ids and digests under secret words (`ApiKeySid`, `...Thumbprint`),
//! rule names written as sentences (`SecretsUsedInArgOrEnv`), sample values (`changeme`,
//! `sk_test_YOUR_KEY_HERE`), EF Core's `'?'`, a .NET type's name printed for an object
//! (`System.Security.SecureString`), a `<placeholder>` closing help text's parenthesis, a word
//! such as `False` in a table column beside a secret's name, and a list of records under a
//! secret-named JSON key (each record's own fields say what is secret). From batch 9: short hex
//! digests and timestamps in a secret's row, where a secret is stored (`<secret-storage>`), a
//! secret store's id (`PackageSecretsId`), a call that computes the value in source
//! (`generate_password(length=32)`), masks such as `xxxxx` in a URL or `-REDACTED-`, and a sentence
//! after a secret's name (`secrets: move the feed`, fish's `$TOKEN: set in global scope`). From
//! batch 10: publishable and project keys (`pk_`, `phc_`), prefixed digests (`sha512-...`, a cache
//! key `Linux-nuget-<sha256>`), object ids shorter than a token (`pi_...`), names that hold a GUID,
//! and fingerprints, key ids and public key blobs after the word `key`. From batch 11: encrypted
//! values (Cirrus' `ENCRYPTED[...]`, Maven's `{...}`), VS Code's `${input:...}`, a call's member
//! (`getElementById("cs").dataset.secret`) or references as its named arguments (`setSecret(name:
//! "env:X")`), Tencent's `AKID` SecretId, a `pub_key`, ASP.NET Core's `chunks-N` cookie, names
//! that end in `supported`, `stages`, `accessor` or `variable`, a commented-out sample number, and
//! a test's sample argument that does not read as a password (`Method(password: "abc")`).
//!
//! From the generated damage and look-alike tests (`tests/damage.rs`, `tests/lookalikes.rs`) and
//! the real SDK's own output: a command's description in help (`user-secrets   Manage development
//! user secrets.`), a named digest after the word `key` or a weak label (a cache key
//! `Linux-nuget-<sha256>`), a session id that is a GUID (`MSBuildRestoreSessionId` of a diagnostic
//! build log) stay; a URL's user with an unencoded `@` keeps its password hidden; a SAS query as a
//! connection string's value (`SharedAccessSignature=sv=...&sig=...`) keeps its public
//! parameters; a command's name as an option's value (`sqlcmd -S mysql -P ...`) does not start
//! that command; the VALUE of `user-secrets set` on a command line shows as its saved message
//! does, and either shows as it is when its secret parts are already masked (the help's
//! `"User ID=bob;Password=***"`); a whole JWT ending a line is not read line by line as one broken after its first dot; a
//! password of letters and symbols after the word `password` is the value, not a word to skip
//! for a number later in the sentence (`with password X succeeded from 10.1.2.3`).
//!
//! From a red team of real tools' formats (round 17): credentials passed by position to .NET calls
//! (`new AuthenticationHeaderValue("Bearer", X)`, `NetworkCredential`, `ClientSecretCredential`,
//! `TwilioClient.Init`), a secret `echo`ed into `--password-stdin`, `--with-token` or `sudo -S`,
//! DPAPI blobs whose body starts with `+` or `/`, each string of a one-line JSON list under a secret
//! name, Azure Pipelines' debug `Result:` in a downloaded (timestamped) log, Mailchimp, Bitbucket
//! and Replicate keys. Kept: a SAS query's times with their colons (no `.pgpass` line), a kubeconfig's
//! certificates in base64, a list of setting names, Secret Manager's `--secret=NAME`, keys that find
//! data (`PartitionKey`, `RowKey`, `Idempotency-Key`), a webhook's `sha256=` signature, `gh auth
//! login`'s one-time device code, and in structured content a keys file's `PublishableKey`, the
//! `Status` and `CreateDate` of `aws iam create-access-key`, and what describes each record of
//! `az cosmosdb keys list --type connection-strings`.

use std::borrow::Cow;
use std::sync::LazyLock;

use serde_json::Value;

use self::{
    cli::plan_args,
    connection::own_labels,
    keys::{DESCRIBING_WORDS, KeyClass, account_key_under, classify_key, key_words, names_key_map, names_public},
    labelled::{authorization_value, redact_labelled},
    lines::prefixed_private_keys,
    patterns::{CONTEXT_FREE, FULL, SHAPES, redact_with},
    prose::generated_token,
};

mod cli;
mod connection;
mod hexdump;
mod keys;
pub mod known;
mod labelled;
pub mod learn;
mod lines;
mod patterns;
mod prose;
mod replace;
mod stand_in;
mod tables;
mod tokens;

pub use lines::LineRedactor;

/// What a secret is replaced with, so clients and tests can recognise a redaction.
pub const REDACTED: &str = "[REDACTED]";

/// Whether a key, property, option or variable name says its value is secret
/// (`password`, `DB_PWD`, `secret`, `token`, `apiKey`, `connectionString`, `AccountKey`...),
/// so callers can hide values they show by name (environment, MSBuild properties, settings).
pub fn is_secret_key(name: &str) -> bool {
    matches!(classify_key(name), KeyClass::Secret | KeyClass::Connection)
}

/// Compiles the combined patterns (each form, and the forms' alternation every redaction starts
/// with) now rather than at the first redaction: they are large (about a second to build in a
/// debug build), and a plugin that calls this on a thread of its own when
/// it is created lets its first call run the command meanwhile (`scripts/bench --real-sdk
/// --startup` measures the first call of each family).
pub fn warm_up() {
    for pattern in [&FULL, &CONTEXT_FREE, &SHAPES] {
        LazyLock::force(pattern).alternation();
    }
}

/// Returns `input` with every secret replaced by [`REDACTED`]; borrows when nothing changed.
/// Use it on all process output, echoed command lines and messages before they leave the server.
///
/// Two layers: first the secret values this machine is known to hold ([`known`], learned by
/// [`learn`]), wherever they appear; then the patterns of the forms secrets take.
pub fn redact(input: &str) -> Cow<'_, str> {
    let masked = known::mask_installed(input);
    let keyed = match prefixed_private_keys(&masked) {
        Cow::Borrowed(_) => masked,
        Cow::Owned(keyed) => Cow::Owned(keyed),
    };
    match keyed {
        Cow::Borrowed(_) => redact_with(&FULL, input),
        Cow::Owned(text) => match redact_with(&FULL, &text) {
            Cow::Owned(redacted) => Cow::Owned(redacted),
            Cow::Borrowed(_) => Cow::Owned(text),
        },
    }
}

/// Redacts an argument vector (without shell quoting) before it is logged or echoed:
/// the value after a secret flag (`--password x`), `flag=value` forms, `-p` after
/// `dev-certs https`, `-k`/`-sk` after `nuget push|delete`, the VALUE of
/// `user-secrets set KEY VALUE`, and every text form inside each argument.
pub fn redact_args<S: AsRef<str>>(args: &[S]) -> Vec<String> {
    args.iter()
        .zip(plan_args(args))
        .map(|(arg, action)| {
            let arg = arg.as_ref();
            match action.part() {
                None => redact(arg).into_owned(),
                Some((start, end, show)) => format!("{}{}{}", &arg[..start], show(&arg[start..end]), &arg[end..]),
            }
        })
        .collect()
}

/// Renders a program and its arguments as one display line, redacted like [`redact_args`], with
/// arguments that contain spaces or quotes (or are empty) wrapped in double quotes, for the
/// `command` fields of results and errors.
pub fn redacted_command_line<S: AsRef<str>>(program: &str, args: &[S]) -> String {
    let mut line = redact(program).into_owned();
    for arg in redact_args(args) {
        line.push(' ');
        if arg.is_empty() || arg.contains(|c: char| c.is_whitespace() || c == '"' || c == '\'') {
            line.push('"');
            line.push_str(&arg.replace('"', "\\\""));
            line.push('"');
        } else {
            line.push_str(&arg);
        }
    }
    line
}

/// Redacts a JSON value in place: every string is text-redacted, every string under a key whose
/// name says secret ([`is_secret_key`]) is replaced whole (also inside nested objects and arrays),
/// and a generated-looking string under a weakly named key (`subscriptionKey`) too. The `value`
/// of a `{"name": ..., "value": ...}` (or `key`) pair counts as named by its `name`, as listings
/// of settings and variables write them. An authorization header's value keeps its scheme and
/// public fields as in text (`Bearer [REDACTED]`). Empty strings,
/// numbers, booleans and object keys are kept. Iterative, so deep documents cannot overflow the stack.
pub fn redact_json(value: &mut Value) {
    // Each value with its class and, for a string, the name of the member that holds it.
    let mut pending: Vec<(&mut Value, KeyClass, &str)> = vec![(value, KeyClass::Plain, "")];
    while let Some((value, class, name)) = pending.pop() {
        match value {
            Value::String(s) => {
                if let Cow::Owned(masked) = known::mask_installed(s) {
                    *s = masked;
                }
                // A secret value whose own labels say which of its parts is secret (Secrets
                // Manager's `SecretString` holding JSON, a connection string), as in text.
                // A PEM private key (a JSON key file's `"privateKey": "-----BEGIN ..."`) keeps its
                // BEGIN and END lines, as it does alone in text.
                let pem = || {
                    s.starts_with("-----BEGIN ")
                        .then(|| redact_with(&CONTEXT_FREE, s).into_owned())
                        .filter(|shown| shown != s)
                };
                // An authorization header's value keeps its scheme, as in text (`Bearer [REDACTED]`).
                let own = if class == KeyClass::Secret {
                    authorization_value(name, s).or_else(|| own_labels(s)).or_else(pem)
                } else {
                    None
                };
                match own.or_else(|| redact_labelled(class, s)) {
                    Some(shown) if shown != *s => *s = shown,
                    Some(_) => {}
                    // A member's value shaped as an account key, as in text.
                    None if !name.is_empty() && account_key_under(name, s) => *s = REDACTED.to_owned(),
                    None => {
                        if let Cow::Owned(redacted) = redact(s) {
                            *s = redacted;
                        }
                    }
                }
            }
            // A list of records under a secret-named key (`{"secrets": [{"name": ..., "updated":
            // ...}]}`, a vault's listing), one under a key named for connection strings describes
            // them (`az cosmosdb keys list --type connection-strings`: each `connectionString` beside
            // its `description` and `keyKind`), and a weakly named one (a JWKS's `{"keys": [{"kid":
            // ..., "n": ...}]}`) names keys: each record's own fields say what is secret.
            Value::Array(items) => pending.extend(items.iter_mut().map(|v| {
                let listing = matches!(class, KeyClass::Secret | KeyClass::Connection | KeyClass::Weak);
                let class = if v.is_object() && listing { KeyClass::Plain } else { class };
                (v, class, name)
            })),
            Value::Object(map) => {
                // A record under a secret-named key that names its own secret member (an MSAL token
                // cache's `"AccessToken": {ID: {"secret": ..., "client_id": ..., "cached_at": ...}}`,
                // `"token": {"access_token": ..., "scope": ...}`): its own names say what is secret,
                // as a list of records under a secret name does.
                let class = if class == KeyClass::Secret && map.keys().any(|k| classify_key(k) == KeyClass::Secret) {
                    KeyClass::Plain
                } else {
                    class
                };
                // A `{"name"|"key": NAME, "value": VALUE}` pair: VALUE is as secret as NAME says;
                // a Terraform output `{"sensitive": true, "value": VALUE}`: VALUE is secret.
                // An object whose type says it is secret (`"Type": "SecureString"`, 1Password's
                // `"type": "CONCEALED"`) too; a `"label"` names a field as `"name"` does (`op item get`).
                let secure_type =
                    ["type", "Type"].iter().find_map(|field| map.get(*field)).and_then(Value::as_str).is_some_and(
                        |kind| {
                            ["securestring", "secureobject", "concealed"].contains(&kind.to_ascii_lowercase().as_str())
                        },
                    );
                let named = if map.get("sensitive") == Some(&Value::Bool(true)) || secure_type {
                    Some(KeyClass::Secret)
                } else {
                    ["name", "key", "label"]
                        .iter()
                        .find_map(|field| map.get(*field))
                        .and_then(Value::as_str)
                        .map(classify_key)
                };
                // The public key a CI service hands out to seal secrets with (GitHub's and Gitea's
                // `.../secrets/public-key`: exactly `{"key_id": ..., "key": ...}`) is public.
                let sealing_key = map.len() == 2 && map.contains_key("key_id") && map.contains_key("key");
                // A flat map of generated tokens where some value is a token known by its shape is a keys
                // file (the `llm` CLI's `keys.json`: `{"openai": "sk-...", "mistral": "..."}`): its
                // other key-like values are keys too, whatever their names, but one a name says is
                // public (Stripe's `PublishableKey` beside its `SecretKey`).
                let keys_file = map.len() >= 2
                    && map.values().filter_map(Value::as_str).filter(|v| generated_token(v)).count() == map.len()
                    && map.values().filter_map(Value::as_str).any(|v| matches!(redact_with(&SHAPES, v), Cow::Owned(_)));
                // A `{"propertyName": NAME, "propertyValue": VALUE}` pair (`xName` / `xValue`): the same.
                let prefixed: Vec<(String, KeyClass)> = map
                    .iter()
                    .filter_map(|(k, v)| {
                        let prefix = k.strip_suffix("Name").filter(|prefix| !prefix.is_empty())?;
                        Some((format!("{prefix}Value"), classify_key(v.as_str()?)))
                    })
                    .collect();
                pending.extend(map.iter_mut().map(|(k, v)| {
                    // `az batch account keys list`'s `primary` and `secondary` are the keys.
                    let neutral = ["value", "default", "encoded", "primary", "secondary"]
                        .iter()
                        .any(|name| k.eq_ignore_ascii_case(name))
                        || JWK_PRIVATE_MEMBERS.contains(&k.as_str());
                    let by_name = prefixed.iter().find(|(field, _)| field == k).map(|(_, class)| *class);
                    let own = match (named, by_name) {
                        _ if sealing_key && k == "key" => KeyClass::Plain,
                        (Some(named), _) if neutral && named != KeyClass::Plain => named,
                        _ if neutral => KeyClass::Neutral,
                        (_, Some(class)) if class != KeyClass::Plain => class,
                        _ if keys_file && classify_key(k) == KeyClass::Plain && !names_public(k) => KeyClass::Neutral,
                        _ => classify_key(k),
                    };
                    // What a secret or connection-string object holds is as secret, but a member that
                    // only describes it (its `type`, `contentType`, `name`, `url`: ARM's
                    // `"adminPassword": {"type": "SecureString"}`).
                    let describes = own == KeyClass::Plain
                        && key_words(k).last().is_some_and(|word| DESCRIBING_WORDS.contains(&word.as_str()));
                    // The members of an object under a weakly named key (`az functionapp keys list`'s
                    // `"systemKeys": {"durabletask_extension": KEY}`) are keys when they look like keys.
                    let inherited = match (class, own) {
                        (KeyClass::Secret, _) if describes => own,
                        (KeyClass::Secret, _) | (KeyClass::Connection, KeyClass::Secret) => KeyClass::Secret,
                        (KeyClass::Connection, _) => KeyClass::Connection,
                        // A member of a map of keys (`"systemKeys": {"durabletask_extension":
                        // ...}`) is a key, whatever its own name.
                        (KeyClass::Weak, KeyClass::Plain) if !describes => KeyClass::Weak,
                        _ => own,
                    };
                    // Only a map of keys hands its members a key's class: the members of an object
                    // under another weak name (`"auth": {...}`) are judged by their own names.
                    let inherited = match inherited {
                        KeyClass::Weak if v.is_object() && !names_key_map(k) => KeyClass::Plain,
                        inherited => inherited,
                    };
                    (v, inherited, k.as_str())
                }))
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}

/// The members of a JSON Web Key that hold its private part (RFC 7518: RSA's `d`, `p`, `q`,
/// `dp`, `dq`, `qi`, EC's and OKP's `d`, a symmetric key's `k`): key-like values under them are
/// secret.
const JWK_PRIVATE_MEMBERS: &[&str] = &["d", "p", "q", "dp", "dq", "qi", "k"];

/// Replaces every occurrence of each known secret value in `text` with [`REDACTED`]; borrows
/// when none occurs. For values the caller knows are secret but no pattern of [`redact`] can
/// recognise: a connection string passed as a positional argument (`ef dbcontext scaffold`),
/// a password, a user secret's value. Longer values are replaced first, so a value that contains
/// another is masked whole; empty values are ignored. Short values are masked wherever they
/// occur, even inside unrelated words: a garbled line is the price of never showing a secret.
/// Apply it to raw text before [`redact`], which could otherwise rewrite part of a value first.
pub fn mask_known<'a, S: AsRef<str>>(text: &'a str, secrets: &[S]) -> Cow<'a, str> {
    let mut values: Vec<&str> = secrets.iter().map(AsRef::as_ref).filter(|value| !value.is_empty()).collect();
    values.sort_by_key(|value| std::cmp::Reverse(value.len()));
    let mut masked = Cow::Borrowed(text);
    for value in values {
        if masked.contains(value) {
            masked = Cow::Owned(masked.replace(value, REDACTED));
        }
    }
    masked
}

/// Redacts the lines of several streams merged in the order they arrived (the stdout and stderr
/// of one process), each stream with its own [`LineRedactor`]: a form over several lines of one
/// stream (a private key, a JSON name and its value) is recognised however lines of the other
/// streams come between its lines, and no line of one stream is taken for part of the other's.
/// `lines` are (stream index, line without its ending); the kept lines come back each ending
/// with `\n`.
pub fn redact_interleaved<'a>(lines: impl IntoIterator<Item = (usize, &'a str)>) -> String {
    let mut redactors: Vec<LineRedactor> = Vec::new();
    let mut out = String::new();
    for (stream, line) in lines {
        if redactors.len() <= stream {
            redactors.resize_with(stream + 1, LineRedactor::new);
        }
        if let Some(line) = redactors[stream].line(line) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests;
