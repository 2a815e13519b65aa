//! The combined pattern: the fragments its forms share, one alternative per form (`rules`),
//! the compiled patterns and the one pass of a pattern over text (`redact_with`).

use std::borrow::Cow;
use std::sync::{LazyLock, OnceLock};

use regex::{Captures, Regex};

use super::{
    JWK_PRIVATE_MEMBERS,
    cli::{COMMANDS, SECRET_OPTION_ENDINGS},
    connection::{CONNECTION_KEYWORDS, LIBPQ_KEYWORDS},
    hexdump::HEXDUMP_LINE,
    keys::{ACCOUNT_KEY_SHAPE, CONNECTION_KEY_WORDS, LAST_KEY_WORDS, STRONG_KEY_WORDS, WEAK_KEY_WORDS, words_pattern},
    labelled::{AUTH_PARAM_VALUE, CREDENTIAL_CALLS},
    prose::{FOREIGN_KEY_WORDS, FOREIGN_SECRET_WORDS},
    replace::replace,
    tables::{RULE_LINE, csv_header, ruled_header},
    tokens::{DPAPI_BLOB, RECOVERY_CODE_LINE, TOKEN_PREFIXES, VENDOR_TOKEN},
};

/// A call in source code that computes a value (`generate_password(length=32)`, `os.urandom(32)`):
/// one pattern for the two places that must agree on it, [`VALUE`] (which takes such a call whole
/// after a label) and `STAND_IN` (which then keeps it as no secret).
/// Also a member of what a call returns (`document.getElementById("cs").dataset.secret` in a page's
/// script): the value is read from the call's result, its argument is no secret.
macro_rules! source_call {
    () => {
        concat!(
            r"(?:[A-Za-z_][A-Za-z0-9_]*(?:[._][A-Za-z0-9_]+)+\([A-Za-z0-9_.=, \t]*\)",
            // C# quoted in a stack trace or a compiler error: a generic call
            // (`configuration.GetValue<string>("ApiKey")`), an awaited call or a construction
            // (`await client.GetTokenAsync(ct)`, `new string('x', 10)`), a call without arguments
            // (`GetPassword()`), members read from an object (`options.Value.ClientSecret`,
            // `_settings.Password`; names are words of letters, so a token's dotted parts are not
            // taken for them): an expression, which computes the value, not a literal. A
            // construction given a string literal is not one (`new NetworkCredential("ci", "pw")`):
            // the literal is the value.
            r#"|(?:(?:await|new)[ \t]+)?[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*<[A-Za-z0-9_.,?\[\] \t]*>\((?:"[^"\r\n]*"|'[^'\r\n]*'|[A-Za-z0-9_., \t])*\)"#,
            r#"|await[ \t]+[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\((?:"[^"\r\n]*"|'[^'\r\n]*'|[A-Za-z0-9_., \t])*\)"#,
            r#"|new[ \t]+[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*\((?:'[^'\r\n]*'|[A-Za-z0-9_., \t])*\)"#,
            r"|[A-Z][a-z]+(?:[A-Z][a-z]+)+\(\)|_[a-z]+(?:[A-Z][a-z]+)*(?:\.[A-Z][a-z]+(?:[A-Z][a-z]+)*)+",
            r"|[a-z]+(?:[A-Z][a-z]+)*(?:\.[A-Z][a-z]+(?:[A-Z][a-z]+)*){2,}",
            r#"|[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+\((?:"[^"\r\n]*"|'[^'\r\n]*'|[A-Za-z0-9_., \t])*\)(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+)"#
        )
    };
}
pub(super) use source_call;

/// A call with named arguments, each a quoted literal (`setSecret(name: "env:TOKEN")` in a
/// GraphQL or Dagger call log): one pattern for [`VALUE`], which takes such a call whole after a
/// label, and `named_arguments`, which judges each argument as a value of its own.
macro_rules! named_call {
    () => {
        r#"[A-Za-z_][A-Za-z0-9_]*\([ \t]*[A-Za-z_][A-Za-z0-9_]*:[ \t]*(?:"[^"\r\n]*"|'[^'\r\n]*')(?:[ \t]*,[ \t]*[A-Za-z_][A-Za-z0-9_]*:[ \t]*(?:"[^"\r\n]*"|'[^'\r\n]*'))*[ \t]*\)"#
    };
}
pub(super) use named_call;

/// SMTP's SASL mechanisms whose `AUTH` command carries the credential (`AUTH PLAIN <base64>`): one
/// list for the `proto_auth` form, which hides that credential, and `STAND_IN`, which keeps a
/// server's list of mechanisms (`250-AUTH LOGIN PLAIN XOAUTH2`) as no secret.
macro_rules! sasl_credential_mechanisms {
    () => {
        "PLAIN|LOGIN|XOAUTH2|OAUTHBEARER|CRAM-MD5"
    };
}
pub(super) use sasl_credential_mechanisms;

/// A URL's scheme and the `://` after it (RFC 3986: a letter, then letters, digits, `+`, `.`, `-`):
/// one pattern for the URL-credential forms and `saved_secret`, which reads a value that starts
/// with one as a URL.
macro_rules! url_scheme {
    () => {
        r"[A-Za-z][A-Za-z0-9+.-]*://"
    };
}
pub(super) use url_scheme;

/// A value after a label: JSON-escaped quotes inside a JSON string (`\"...\"`, or System.Text.Json's
/// `\u0022...\u0022`), a PEM private key flattened on one line (its body words blank-separated, as
/// an environment variable holds it), quoted, braced
/// (ODBC, where `}}` stands for `}`; not a JSON object), bracketed, a reference that may hold
/// blanks (`${VAR}`, `${{ secrets.X }}`, `$(command ...)`), Rust's `Some("...")`, Terraform's
/// `(sensitive value)`, or a bare run up to a delimiter. A bare run does not end with `,`, `)`,
/// `]` or `}`: those close what holds the value (`{"token": null}`, `(pw=abc)`).
const VALUE: &str = concat!(
    // A Python bytes literal (`b'...'`, botocore's debug headers).
    r#"b'(?:[^'\\\r\n]|\\.)*'|b"(?:[^"\\\r\n]|\\.)*"|"#,
    r#"\\u0022[^"\\\r\n]*\\u0022|-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[ \t]+[A-Za-z0-9+/=]{4,})+(?:[ \t]+-----END [A-Z0-9 ]*PRIVATE KEY-----)?|"#,
    // A PEM private key with escaped line breaks (`\n`), as `user-secrets list` prints one.
    r#"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:\\r)?\\n(?:[A-Za-z0-9+/=]|\\[rn])*(?:-----END [A-Z0-9 ]*PRIVATE KEY-----(?:(?:\\r)?\\n)?)?|"#,
    // A PEM private key from the label's line on (`dotnet user-secrets list`'s `Key = -----BEGIN
    // RSA PRIVATE KEY-----` and the key's lines): its body lines and END line, which the PEM form
    // shows (see [`labelled_value`](super::labelled::labelled_value)).
    r#"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:\r?\n[ \t]*(?:[A-Za-z0-9+/=]+|Proc-Type:[^\r\n]*|DEK-Info:[^\r\n]*)?[ \t]*\r?(?m:$))*(?:\r?\n[ \t]*-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----)?|"#,
    // A YAML flow mapping (`{ inline_string: "..." }`, Envoy's data sources): see [`flow_mapping`].
    r#"\{[ \t]*[A-Za-z_][A-Za-z0-9_.-]*:[ \t](?:"[^"\r\n]*"|'[^'\r\n]*'|[^{}"'\r\n])*\}|"#,
    // A literal inside dynamic SQL, its quotes doubled (`EXEC(N'... PASSWORD = N''...'''`).
    r#"N?''[^'\s](?:[^'\r\n]|'''')*''|"#,
    // A call in source code: see [`source_call`]; a call with named arguments (see [`named_call`]).
    source_call!(),
    "|",
    named_call!(),
    "|",
    r#"\\{2,}"[^"\\\r\n]*\\{2,}"|\\"(?:[^"\\\r\n]|\\[^"\r\n])*\\"|ENC\[[^\]\r\n]*\]|#\{[^{}\r\n]*\}|\{\{[^{}\r\n]*\}\}|'\[(?:PII|Security Artifact) of type '[^'\r\n]*' is hidden[^\]\r\n]*\]'|"(?:[^"\\\r\n]|\\.)+"|'(?:[^'\r\n]|'')+'|\{(?:[^}"\r\n]|\}\})*\}|\[[^\]\r\n]*\]"#,
    // Cirrus CI's encrypted variables (`ENCRYPTED[...]`); C#'s verbatim and interpolated strings
    // (`@"..."`, `$"..."`: a generated `ThisAssembly` constant).
    r#"|ENCRYPTED\[[^\]\r\n]*\]|@"(?:[^"\r\n]|"")*"|\$@?"(?:[^"\\\r\n]|\\.)*""#,
    r#"|\$\{\{[^}\r\n]*\}\}|\$\{[^}\r\n]*\}[^\s;"'&<>]*|\$\([^)\r\n]*\)"#,
    r#"|N'(?:[^'\r\n]|'')+'|[A-Za-z_][A-Za-z0-9_]*\((?:"(?:[^"\\\r\n]|\\.)*"|'(?:[^'\\\r\n]|\\.)*')\)|\([^()\r\n]*\)"#,
    // A SAS token's query (`SharedAccessSignature=sv=...&se=...&sig=...`): one value, which its
    // own names show part by part (see [`own_labels`](super::connection::own_labels)).
    r#"|(?:[a-z]{2,5}=[^\s;"'&<>]*&)+sig=[^\s;"'&<>]+(?:&[a-z]{2,5}=[^\s;"'&<>]*)*"#,
    // A bare run: a shell's escape before a separator (`\;` of ANSI-C quoting, cmd's `^&`) is not
    // part of the value, the separator ends it; a doubled `^^` is two carets of the value.
    r#"|[^\s;"'&<>=\[{\x1b](?:[^\s;"'&<>,)\]}\x1b\\^]|[\\^]+[^\s;"'&<>,)\]}\x1b|\\^]|[,)\]}]+[^\s;"'&<>,)\]}\x1b\\^]|\^\^)*"#,
);

/// What separates a label from its value: `=`, `:` or `=>` (PHP, Ruby), after the label's
/// closing quote (also a JSON-escaped `\"`, escaped again at each level of JSON in JSON, or `\u0022`, or a `'`) or bracket (`[password] => ...`).
/// ANSI codes may stand on either side of it: `grep --color=always` ends its highlight of the
/// label (`\x1b[m\x1b[K`) before the `=`, a themed logger colours the value after it.
const LABEL_SEP: &str = r#"(?:\x1b\[[0-9;]*[mK])*(?:\\*["']|\\u0022)?\]?[ \t]*(?:=>|[:=])[ \t]*(?:\x1b\[[0-9;]*[mK])*"#;

/// The rest of a line that introduces a value given after a blank line (a mail: `your new key
/// for staging is:`), after the word for the secret: up to six words and a colon at the line's end.
pub(super) const INTRO_TAIL: &str = r"(?:[ \t]+[A-Za-z_][A-Za-z0-9_.-]*){0,6}[:：][ \t]*";

/// A value in double, single or JSON-escaped double quotes.
const QUOTED: &str = r#""[^"\r\n]*"|'[^'\r\n]*'|\\"(?:[^"\\\r\n]|\\[^"\r\n])*\\""#;

/// The first line of a JWT wrapped over lines (no pattern group, anchored to its line); a
/// console's width can fall after its first dot.
pub(super) const WRAPPED_TOKEN_START: &str =
    r"(?m:^)[ \t]*eyJ(?:[A-Za-z0-9_-]{30,}|[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,})(?:\.[A-Za-z0-9_-]*)?\r?(?m:$)";
/// A following line of a wrapped JWT.
pub(super) const WRAPPED_TOKEN_MORE: &str = r"[ \t]*[A-Za-z0-9_.-]{8,}\r?(?m:$)";

/// A line of a YAML block scalar's value (`token: >-` and what follows): indented, of a token's
/// alphabet.
pub(super) const BLOCK_MORE: &str = r"[ \t]+[A-Za-z0-9+/=_.~-]{8,}[ \t]*\r?(?m:$)";

/// One XML attribute, its value quoted either way.
const XML_ATTRIBUTE: &str = r#"[A-Za-z_:][A-Za-z0-9_.:-]*[ \t]*=[ \t]*(?:"[^"\r\n]*"|'[^'\r\n]*')"#;

/// The start of a Terraform variable block, up to the opening quote of its name.
pub(super) const HCL_VARIABLE_START: &str = r#"[ \t]*variable[ \t]+"#;
/// An attribute line of a Terraform block, up to its `=`.
pub(super) const HCL_ATTRIBUTE: &str = r"[ \t]*[A-Za-z_][A-Za-z0-9_]*[ \t]*=";
/// A variable's `default` attribute, up to its value.
pub(super) const HCL_DEFAULT: &str = r"[ \t]*default[ \t]*=[ \t]*";
/// A Terraform value on one line: quoted, or a bare word (not a list or an object).
pub(super) const HCL_VALUE: &str = r#""(?:[^"\\\r\n]|\\.)*"|[^\s{}\[\]]+"#;

/// A command-line token: quoted, or a bare run that does not start an option or a redirection.
const CLI_VALUE: &str =
    r#"\$\{\{[^}\r\n]*\}\}|\$\([^)\r\n]*\)|"(?:[^"\\\r\n]|\\.)*"|'[^'\r\n]*'|[^\s"'<>|&-][^\s"']*|-[^\s"'-][^\s"']*"#;

/// Which forms a pattern holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Forms {
    /// Every form.
    All,
    /// Every form but the command-line segments: used inside a segment, so it cannot recurse.
    ContextFree,
    /// The forms known by their shape alone, which never scan their match again: used on a value
    /// whose label turned out not to be secret, so a rescan cannot recurse either.
    Shapes,
}

/// The first lines of the forms that [`redact`](super::redact) recognises over two lines, without named groups:
/// a YAML `name:` line whose name has a secret word (its `value:` comes on the next line, as
/// Kubernetes env lists write it), an `expect` prompt for a password or passphrase (its `send`
/// answer may come on the next line), a `terraform output NAME` command line (the output's
/// value comes on the next line; so do `kubectl get secret ... | base64 -d` and `argocd admin
/// initial-password`, which print a secret bare, as do `aws ecr get-login-password`, `gcloud
/// secrets versions access`, `gcloud auth print-access-token` and `az ... -o tsv` listings of keys
/// and secrets run at a prompt, and `pass show NAME`, whose first line is the password), and a
/// PHP `var_dump` key with a secret word (`["password"]=>`, its `string(N) "..."` on the next
/// line), a table row with a secret name whose long value
/// a console may wrap onto the next line, and a container named for a secret whose `value`
/// member comes on the next line (an ARM parameter `"adminPassword": {`, unattend.xml's
/// `<Password>`) or SMTP's base64 `Password:` prompt (`334 UGFzc3dvcmQ6`). [`LineRedactor`](super::LineRedactor)
/// redacts the line after one of them together with it.
pub(super) fn two_line_openers() -> [String; 12] {
    let secret_words = format!("{}|{}", words_pattern(STRONG_KEY_WORDS), words_pattern(LAST_KEY_WORDS));
    [
        format!(r#"(?m:^)[ \t]*(?:-[ \t]+)?(?:name|Name):[ \t]*["']?[^\s"']*(?i:{secret_words})[^\s"']*["']?[ \t]*"#),
        r#"(?-u:\b)expect[ \t]+(?:-[a-z]+[ \t]+)*["{][^"}\r\n]*(?i:assword|passphrase|secret|token)[^"}\r\n]*["}]"#
            .to_owned(),
        concat!(
            r"(?:(?-u:\b)terraform[ \t]+output[ \t]+(?:-[A-Za-z-]+(?:=\S*)?[ \t]+)*[A-Za-z_][A-Za-z0-9_-]*",
            r"|(?-u:\b)kubectl[ \t]+get[ \t]+secrets?[ \t][^\r\n|]*\|[ \t]*base64[ \t]+(?:-d|--decode|-D)",
            r"|(?-u:\b)argocd[ \t]+admin[ \t]+initial-password(?:[ \t]+-[^\r\n]*)?",
            // Cloud CLIs that print a secret bare when run at a prompt (not inside `$(...)`):
            // ECR's login password, a Secret Manager version, an access token, and Azure keys in
            // tsv. Also secret managers' commands that print one bare (batch 10): PowerShell's
            // `Get-Secret -AsPlainText` (also at a `PS>` prompt), 1Password's `op read`, macOS
            // `security find-generic-password -w`, Bitwarden's `bw get password`, `vault kv get
            // -field=`, `doppler secrets get --plain`, and an AWS query for a parameter's or a
            // secret's value as text.
            r"|(?m:^)[ \t]*(?:[$>#%+][ \t]+|PS[^\r\n>]{0,80}>[ \t]*)?(?:aws[ \t]+ecr(?:-public)?[ \t]+get-login-password",
            r"|(?:Get-Secret|Get-AzKeyVaultSecret)[ \t][^\r\n|()]*-AsPlainText(?:[ \t][^\r\n|()]*)?|op[ \t]+read[ \t][^\r\n|()]*",
            r"|security[ \t]+find-(?:generic|internet)-password[ \t][^\r\n|()]*[ \t]-w(?:[ \t][^\r\n|()]*)?",
            r"|bw[ \t]+get[ \t]+password[^\r\n|()]*|vault[ \t]+kv[ \t]+get[ \t][^\r\n|()]*-field[ \t=][^\r\n|()]*",
            r"|doppler[ \t]+secrets[ \t]+get[ \t][^\r\n|()]*--plain(?:[ \t][^\r\n|()]*)?",
            r"|aws[ \t]+(?:ssm[ \t]+get-parameter|secretsmanager[ \t]+get-secret-value)[ \t][^\r\n|()]*--query[ \t]+[^\r\n|()]*(?:Value|SecretString)[^\r\n|()]*--output[ \t]+text(?:[ \t][^\r\n|()]*)?",
            r"|gcloud[ \t]+(?:secrets[ \t]+versions[ \t]+access|auth[ \t]+print-(?:access|identity)-token)",
            // Batch 11: commands that generate a secret and print it bare (`mix phx.gen.secret`,
            // `rails secret`, `openssl rand -base64 32`), and the content of a license, key or
            // token file shown at a prompt (`Get-Content ...\DevExpress_License.txt`, `cat token.txt`).
            r"|mix[ \t]+phx\.gen\.secret|(?:bin/)?(?:rails|rake)[ \t]+secret|openssl[ \t]+rand[ \t]+-(?:base64|hex)",
            r"|(?:cat|type|more|Get-Content|gc)[ \t]+[^\r\n|()]*(?i:licen[cs]e|secret|token|password|api[_-]?key)[A-Za-z0-9_.-]*\.(?:txt|key|lic)",
            r"|az[ \t]+(?:redis[ \t]+list-keys|storage[ \t]+account[ \t]+keys[ \t]+list|account[ \t]+get-access-token|keyvault[ \t]+secret[ \t]+show)[^\r\n|()]*[ \t]-o(?:utput)?[ \t]+tsv)(?:[ \t]+[^\r\n|()]*)?",
            // A password store's entry shown at a prompt (`pass show NAME`, `gopass show NAME`): its
            // first line is the password, bare (the lines after it are `login:`, `url:` fields).
            r"|(?m:^)[ \t]*(?:[$>#%+][ \t]+)?(?:pass|gopass)[ \t]+show[ \t]+[A-Za-z0-9_.@+][A-Za-z0-9_./@+-]*)[ \t]*",
        )
        .to_owned(),
        format!(r#"\["[^"\r\n]*(?i:{secret_words})[^"\r\n]*"\]=>[ \t]*"#),
        // A table row whose value, a long base64 run, may go on on the next line (`az storage
        // account keys list -o table` wrapped by the console).
        format!(
            r"(?m:^)[ \t]*[A-Za-z0-9_.:-]*(?i:{secret_words}|{weak})[A-Za-z0-9_.:-]*(?:[ \t]{{2,}}|\t)[A-Za-z0-9+/]{{40,}}[ \t]*\r?(?m:$)",
            weak = words_pattern(WEAK_KEY_WORDS)
        ),
        // Also an element named by a secret-named `name` attribute, its `<value>` on the next line
        // (a `.resx` `<data name="ApiKey" xml:space="preserve">`, an `App.config` `<setting>`).
        format!(
            r#"(?:"[^"\r\n]*(?i:{secret_words})[^"\r\n]*"[ \t]*:[ \t]*\{{|<[A-Za-z0-9_.:-]*(?i:{secret_words})[A-Za-z0-9_.:-]*>|(?-u:\b)334 UGFzc3dvcmQ6|untrusted comment:[^\r\n]*secret key|<[A-Za-z][A-Za-z0-9_.:-]*(?:[ \t]+{XML_ATTRIBUTE})*?[ \t]+(?i:key|name)[ \t]*=[ \t]*"[^"\r\n]*(?i:{secret_words}|{weak})[^"\r\n]*"(?:[ \t]+{XML_ATTRIBUTE})*[ \t]*>)[ \t]*\r?(?m:$)"#,
            weak = words_pattern(WEAK_KEY_WORDS)
        ),
        // A line that is only a secret-named identifier (`strings` of an assembly, `grep -A1`):
        // a password-like word alone on the next line is its value.
        r"(?m:^)[ \t]*[A-Za-z][A-Za-z0-9_]*(?i:password|passwd|secret|token|apikey|api_key)[ \t]*\r?(?m:$)".to_owned(),
        // A YAML list item that is a secret option (`- --requirepass`), its value the next item.
        format!(
            r"(?m:^)[ \t]*-[ \t]+--?[A-Za-z0-9-]*(?i:{options}|requirepass|masterauth)[ \t]*\r?(?m:$)",
            options = words_pattern(SECRET_OPTION_ENDINGS)
        ),
        // Azure Pipelines' debug evaluation of a secret-named variable.
        format!(r"##\[debug\]Evaluating:[ \t]*variables\['[^'\r\n]*(?i:{secret_words})[^'\r\n]*'\][ \t]*\r?(?m:$)"),
        // An `echo` of a secret-named variable (`echo "got: $DB_PWD"`, also after `;` or `&&`, or
        // traced by `set -x`):
        // the line it prints holds the value (see [`echoed_secrets`](super::cli::echoed_secrets)).
        format!(
            r"(?:(?m:^)[ \t]*(?:[$>#%+][ \t]+)?|[;&][ \t]*)echo[ \t]+[^\r\n]*\$\{{?[A-Za-z0-9_]*(?i:{secret_words}|{weak})[^\r\n]*",
            weak = words_pattern(WEAK_KEY_WORDS)
        ),
        // A list of columns with a secret-named one, its values on the next line: SQL's `INSERT
        // INTO t (..., "Secret")` / `VALUES (...)`, EF Core's `InsertData(columns: new[] { ... },`
        // / `values: new object[] { ... })` (see [`columns_and_values`](super::tables::columns_and_values)).
        format!(
            r#"(?:(?i:insert[ \t]+into)[^\r\n(]*\(|columns:[ \t]*new[ \t]*(?:string)?\[\][ \t]*\{{)[^(){{}}\r\n]*(?i:{secret_words})[^(){{}}\r\n]*[)}}][ \t]*,?[ \t]*"#
        ),
        // A `.netrc` entry written one token pair a line (`machine HOST` / `login USER` /
        // `password PASSWORD`): its `login` line, the `password` on the next.
        r"(?m:^)[ \t]*(?:machine[ \t]+\S+[ \t]+)?login[ \t]+\S+[ \t]*\r?(?m:$)".to_owned(),
    ]
}

/// One alternative of the combined pattern per form, grouped by class, most specific first
/// (when two forms could start at the same place, the one listed first wins).
fn rules(forms: Forms) -> Vec<String> {
    let foreign = FOREIGN_SECRET_WORDS.iter().map(|word| regex::escape(word)).collect::<Vec<_>>().join("|");
    let foreign_keys = FOREIGN_KEY_WORDS.iter().map(|word| regex::escape(word)).collect::<Vec<_>>().join("|");
    let strong = format!("{}|{foreign}", words_pattern(&[STRONG_KEY_WORDS, CONNECTION_KEY_WORDS].concat()));
    let last = words_pattern(LAST_KEY_WORDS);
    let weak = words_pattern(WEAK_KEY_WORDS);
    let options = words_pattern(SECRET_OPTION_ENDINGS);
    let prefixes = TOKEN_PREFIXES.join("|");
    let [
        yaml_name,
        expect_prompt,
        terraform_output,
        vardump_key,
        _wrapped_row,
        _container,
        bare_name,
        list_option,
        azp_variable,
        echo_command,
        column_list,
        netrc_login,
    ] = two_line_openers();
    let labelled = forms != Forms::Shapes;
    let csv_header = csv_header();
    let attr = XML_ATTRIBUTE;
    let pem_kind = "[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?";
    // A connection string: the names its first pair may have, any pair's name (`;` before it),
    // and a word of a password with blanks (a backslash escapes the next character).
    let cs_keywords = CONNECTION_KEYWORDS.iter().map(|k| k.replace(' ', "[ \\t]+")).collect::<Vec<_>>().join("|");
    let pair_name = r"[ \t]*[A-Za-z][A-Za-z0-9_.-]*(?: [A-Za-z][A-Za-z0-9_.-]*){0,3}[ \t]*";
    let pw_word = r#"(?:[^;\s"'<>\\]|\\[^;\s"'])+"#;
    let mut rules = vec![
        // PEM private key inside a string, its line breaks escaped (`\n`): to its END line, or
        // when cut off to the end of the string (the character that ends it is kept).
        format!(
            r"-----BEGIN (?P<pem_esc_kind>{pem_kind})-----(?P<pem_esc>\\r\\n|\\n)(?:[A-Za-z0-9+/=:,. -]|\\[rn])*?(?:(?P<pem_esc_end>-----END {pem_kind}-----)|(?P<pem_stop>[^A-Za-z0-9+/=:,. \\-]|\z))"
        ),
        // PEM private key, with real line breaks: everything up to its END line (no line of
        // the body starts another block); or, when cut off, its body lines (one word each: the
        // base64 lines, also on the BEGIN line, blank-separated, as an environment variable
        // flattens it) and `Proc-Type:` / `DEK-Info:` headers, so the line after it stays.
        format!(
            r"-----BEGIN (?P<pem_kind>{pem_kind})-----(?:(?:\r?\n(?:[^-\r\n][^\r\n]*|-{{1,4}}(?:[^-\r\n][^\r\n]*)?)?)*?\r?\n[ \t]*(?P<pem_end>-----END {pem_kind}-----)|(?:[ \t]+[A-Za-z0-9+/=]{{8,}})*(?:\r?\n[ \t]*(?:[^\s-]\S*|Proc-Type:[^\r\n]*|DEK-Info:[^\r\n]*)?[ \t]*\r?(?m:$))*(?:(?:[ \t]+|\r?\n[ \t]*)(?P<pem_cut_end>-----END {pem_kind}-----))?)"
        ),
        // The private lines of a PuTTY key (`.ppk`): the base64 lines after `Private-Lines: N`.
        r"(?P<ppk>Private-Lines:[ \t]*[0-9]+)(?:\r?\n[ \t]*(?:[A-Za-z0-9+/=]+|\[REDACTED\])[ \t]*\r?(?m:$))+"
            .to_owned(),
    ];
    if labelled {
        // Output of a command that prints a secret without a label.
        rules.extend([
            // A value printed without a line break, glued to the shell prompt that follows it
            // (`VALUEdev@box:~/src$ `): hidden when it reads as a password or a generated token. The
            // user's name is taken as letters (then digits), so a value's last letters and digits
            // are not shown as part of it (`...c1dev@` leaves `dev`).
            r"(?m:^)(?P<glued_val>[^\s@]+?)(?P<glued_prompt>[a-z_][a-z_-]*[0-9]*@[A-Za-z0-9.-]+:[~/][^\s$#]*[$#])(?:[ \t]|\r?(?m:$))".to_owned(),
            // A secret-named identifier alone on its line and a password-like word alone on the
            // next (`strings app.dll | grep -A1 password`).
            format!(r"(?P<bare_name>{bare_name}\n[ \t]*)(?P<bare_val>[^\s]+)[ \t]*\r?(?m:$)"),
            // A YAML list item that is a secret option, its value the next item (`docker compose
            // config`'s `command:` list: `- --requirepass` / `- VALUE`).
            format!(r#"(?P<ylist>{list_option}\n[ \t]*-[ \t]+)(?P<ylist_val>"[^"\r\n]*"|'[^'\r\n]*'|[^\s"'][^\r\n]*?)[ \t]*\r?(?m:$)"#),
            // Azure Pipelines' `system.debug`: a secret-named variable evaluated, its value on the
            // next line (`##[debug]Evaluating: variables['Sql.AdminPassword']` / `##[debug]Result: '...'`).
            // A downloaded log starts each line with its time (`2025-03-01T10:15:02.1234567Z `).
            format!(
                r"(?P<azp_eval>{azp_variable}\n(?:[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}}T[0-9:.]+Z[ \t]+)?##\[debug\]Result:[ \t]*)(?P<azp_val>'[^'\r\n]*'|[^\r\n]+)"
            ),
            // A SAS signature after an escaped `&` (System.Text.Json's `\u0026sig=`).
            r#"(?P<esc_sig>\\u0026(?i:sig)=)(?P<esc_sig_val>[^\s"&\\]+)"#.to_owned(),
            // A login method's or test's arguments, user then password (`LoginAsync("svc", "pw")`
            // in a mock's failure, NUnit's `Login_succeeds("a@b.c","pw")`): the second string.
            r#"(?P<login_call>(?-u:\b)[A-Za-z0-9_.]*(?i:login|log_in|signin|sign_in|authenticate)[A-Za-z0-9_]*\([ \t]*(?:"[^"\r\n]*"|'[^'\r\n]*')[ \t]*,[ \t]*)(?P<login_call_val>"[^"\r\n]*"|'[^'\r\n]*')"#.to_owned(),
            // An e-mail address and a password after a slash (`Seed admin created: a@b.c / pw`),
            // also a user named as credentials (`protected with basic auth admin / pw`,
            // `credentials: ops / pw`, `login ops / pw`).
            r#"(?P<upair>(?-u:\b)(?:[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+|(?i:basic[ \t-]?auth(?:entication)?|credentials?|log[ \t-]?in)[ \t]*:?[ \t]+[A-Za-z0-9._@-]+)[ \t]+/[ \t]+)(?P<upair_val>[^\s"'<>]+)"#.to_owned(),
            // `aws secretsmanager get-secret-value --output text`: ARN, date, name, then the secret.
            r"(?m:^)(?P<sm_row>arn:aws[a-z-]*:secretsmanager:[^\t\r\n]*\t[^\t\r\n]*\t[^\t\r\n]*\t)(?P<sm_val>[^\t\r\n]+)".to_owned(),
            // An AWS access key id and, further on its line, the 40 characters of its secret key
            // (`aws iam create-access-key` as a table or text).
            r#"(?P<aws_pair>(?-u:\b)A(?:KIA|SIA)[A-Z0-9]{16}[^\r\n]*?[\s|,"':=])(?P<aws_secret>[A-Za-z0-9/+]{40})(?P<aws_end>[\s|,"']|\r?(?m:$))"#.to_owned(),
            // `-u ID:SECRET` of a CLI's basic authentication (`twilio ... -u AC...:token`).
            r#"(?P<uflag>(?:(?m:^)|[ \t])(?:-u|--user|--auth|--(?:[a-z]+-)?creds)(?:[ \t]+|=)[A-Za-z0-9_.@-]+:)(?P<uflag_val>[^\s"'@]+)"#.to_owned(),
            // A secret-named query parameter URL-encoded inside another URL (`%3Fpassword%3D...%26`);
            // a weakly named one (`%3Fkey%3D`) right after its encoded `?` or `&`. An encoded `;`
            // ends the value, as `;` ends it in a connection string (`%3BPassword%3D...%3B`).
            format!(r#"(?P<enc_key>[A-Za-z0-9_.-]*(?i:{strong}|{last})%3[Dd]|%(?:3[Ff]|26)[A-Za-z0-9_.-]*(?i:{weak})[A-Za-z0-9_.-]*%3[Dd])(?P<enc_val>(?:[^\s%&"'<>]|%(?:2[0-57-9A-Fa-f]|3[0-9ACDEFacdef]|[014-9A-Fa-f][0-9A-Fa-f]))+)"#),
            // MSBuild's `Property reassignment: $(Name)="new" (previous value: "old")` (`-v:diag`, a
            // binary log's replay): both values are as secret as the property's name.
            r#"(?P<reassign>Property reassignment: \$\((?P<reassign_name>[A-Za-z0-9_.-]+)\)=)(?P<reassign_val>"[^"\r\n]*")(?P<reassign_mid>[ \t]*\(previous value:[ \t]*)(?P<reassign_prev>"[^"\r\n]*")"#.to_owned(),
            // A secret-named member quoted after its name in a message (`BindPassword 'x' is
            // rejected`, options validation and exception texts).
            r#"(?P<named_quote>(?-u:\b)[A-Z][A-Za-z0-9]*(?:Password|Passwd|Passphrase|Secret|Token|ApiKey)[ \t]+)(?P<named_quote_val>'[^'\r\n]+'|"[^"\r\n]+")"#.to_owned(),
            // A connection named by its configuration path (`ConnectionStrings:Storage = ...`,
            // `"ConnectionStrings:Db": "..."`): the path is one name, so its value is judged whole as
            // a connection string (public parts kept), not `Storage=...` read as the value of a
            // label `ConnectionStrings`. The value runs to the line's end, or a closing quote.
            r#"(?P<cs_path>(?-u:\b)(?i:ConnectionStrings):[A-Za-z0-9_.-]+"?[ \t]*[=:][ \t]*)(?P<cs_path_val>(?:"[^"\r\n]*"|[^"\r\n]*[^\s"]))"#.to_owned(),
            // A secret named, then said to be read from somewhere, its value bare after a colon
            // (`Secret "db-password" read from vault: X`, `Token 'gh' loaded from env: X`, `Password
            // read from file: X`): the noun and the retrieval say the value is the secret, so it is
            // hidden whatever it looks like (a stand-in such as `(empty)` stays). A name in quotes,
            // or none: a bare word after the noun is a sentence's (`Token cache read from disk: 12`),
            // though `for` or `of` and a word may come before the quoted name (`Password for "app"
            // read from file: X`, `Token for user 'ci' loaded from env: X`),
            // and `from` alone is no retrieval (`Secret 'Db' from vault orders: ...` says where it is).
            r#"(?P<read_secret>(?-u:\b)(?i:secret|password|passphrase|token|credential|api[ _-]?key)(?:(?:[ \t]+(?i:for|of)(?:[ \t]+[A-Za-z_][A-Za-z0-9_.-]*)?)?[ \t]+(?:"[^"\r\n]+"|'[^'\r\n]+')(?:[ \t]+[A-Za-z_][A-Za-z0-9_.-]*){0,2})?[ \t]+(?i:read|loaded|fetched|retrieved|resolved|obtained|pulled|returned|value)(?-u:\b)(?:[ \t]+[A-Za-z_][A-Za-z0-9_.-]*){0,4}[ \t]*[:：][ \t]*)(?P<read_secret_val>"[^"\r\n]*"|'[^'\r\n]*'|\([^()\s]*\)|[^\s"'<>]*[^\s"'<>.,;:)])"#.to_owned(),
            // A CI masking command echoed by `set -x` (`::add-mask::VALUE`): the value is what it masks.
            r#"(?P<add_mask>::add-mask::)(?P<add_mask_val>[^\s'"]+)"#.to_owned(),
            // A secret `echo`ed into a command that reads it from standard input (`echo PW | docker
            // login -u me --password-stdin`, `gh auth login --with-token`, `sudo -S`): the echoed word.
            r#"(?P<stdin_echo>(?-u:\b)echo(?:[ \t]+-[neE]{1,3})?[ \t]+)(?P<stdin_val>"[^"\r\n]*"|'[^'\r\n]*'|[^\s|;&'"]+)(?P<stdin_pipe>[ \t]*\|[ \t]*[^\r\n|;&]*?(?:--password-stdin|--with-token|sudo[ \t]+-S)(?-u:\b)[^\r\n|;&]*)"#.to_owned(),
            // A secret passed to a constructor named for one in source (`new Secret("...".Sha256())`,
            // `new ClientSecret("...")`, `new NetworkCredential`'s is a password option elsewhere).
            r#"(?P<ctor>(?-u:\b)new[ \t]+[A-Za-z0-9_.]*(?i:secret|password|apikey|token)[ \t]*\([ \t]*)(?P<ctor_val>"(?:[^"\\\r\n]|\\.)*")"#.to_owned(),
            // The arguments of a .NET call that takes a credential by position
            // (`new AuthenticationHeaderValue("Bearer", "...")`, `new NetworkCredential("user", "...")`,
            // `TwilioClient.Init(sid, "...")`): which of them is secret, see [`CREDENTIAL_CALLS`].
            format!(
                r#"(?P<cred_call>(?-u:\b)(?:{calls})[ \t]*\()(?P<cred_args>(?:"(?:[^"\\\r\n]|\\.)*"|[^"()\r\n])*)(?P<cred_end>\))"#,
                calls = CREDENTIAL_CALLS.iter().map(|(name, _)| regex::escape(name)).collect::<Vec<_>>().join("|")
            ),
            // Batch 11: values that their context names, in output no other form reads (see
            // [`replace_contexts`]).
            // A secret option and its value as consecutive quoted items of a list (strace's
            // `execve("...", ["app", "--api-key", "..."], ...)`, a JSON or Python argv list): the
            // value as secret as the option (`--x-key` is a weak name, its value hidden when it
            // looks generated).
            format!(
                r#"(?P<argv>["'](?P<argv_opt>--?[A-Za-z0-9-]*(?i:{options}|key|pass))["'][ \t]*,[ \t]*)(?P<argv_val>"(?:[^"\\\r\n]|\\.)*"|'(?:[^'\\\r\n]|\\.)*')"#
            ),
            // Codes and listings (see [`replace_codes_and_listings`]).
            // Recovery codes listed after their name on one line (`has generated new 2FA recovery
            // codes: X, Y, Z.`, `backup codes: ...`): each code. Not the code a device login asks
            // the user to type into a browser (`gh auth login`'s `First copy your one-time code:
            // 4F2C-9E8D`), which signs nobody in by itself.
            r"(?P<rcodes>(?-u:\b)(?i:recovery|backup|scratch|(?P<rcodes_device>copy[ \t]+your[ \t]+)?one-time|single-use)[ \t-]+(?i:codes?)(?:[ \t]+[^\s:：]+){0,3}?[ \t]*[:：][ \t]*)(?P<rcodes_val>[A-Za-z0-9]{4,}(?:-[A-Za-z0-9]{3,})*(?:[ \t]*,[ \t]*[A-Za-z0-9]{4,}(?:-[A-Za-z0-9]{3,})*)*)".to_owned(),
            // Recovery codes one a line (a downloaded codes file, a numbered list): see
            // [`recovery_code_line`].
            format!(r"(?P<rcode_block>(?m:^)(?:{RECOVERY_CODE_LINE}\n)*{RECOVERY_CODE_LINE}(?m:$))"),
            // `aws ssm get-parameter --with-decryption --output text`: the cell after the
            // parameter's type `SecureString` is its value.
            r"(?m:^)(?P<ssm_row>PARAMETERS?\t[^\r\n]*\t(?i:securestring)\t)(?P<ssm_val>[^\t\r\n]+)".to_owned(),
            // `az storage account keys list -o tsv`: a key's creation time (not printed by older
            // versions), its name (`key1`, `kerb2`) and permissions, then the key.
            r"(?m:^)(?P<azkey_row>(?:[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+(?:Z|[+-][0-9:]+)?\t)?(?:key|kerb)[0-9]\t(?i:full|read)\t)(?P<azkey_val>[^\t\r\n]+)".to_owned(),
            // An aligned listing of labels of several capitalised words (`nomad acl bootstrap`'s
            // `Secret ID    = ...`, `Client Secret  : ...`): as secret as the label says.
            // Each word starts with a capital: lower-case words before `=` are code (Bicep's
            // `param adminPassword = '...'` is the `key` form's).
            format!(
                r"(?m:^)(?P<spaced>[ \t]*(?P<spaced_name>(?:{word} ){{1,2}}{secret}(?: {word})?|{secret}(?: {word}){{1,2}})(?:[ \t]{{2,}}[=:]|[ \t]=)[ \t]*)(?P<spaced_val>[^\s]+)(?P<spaced_end>[ \t]*\r?(?m:$))",
                word = "[A-Z][A-Za-z0-9_.-]*",
                secret = format!(
                    "(?:[A-Z][A-Za-z0-9_.-]*?(?i:{strong}|{last})|{capitalised})[A-Za-z0-9_.-]*",
                    capitalised = [STRONG_KEY_WORDS, LAST_KEY_WORDS]
                        .concat()
                        .iter()
                        .map(|word| format!("{}(?i:{})", word[..1].to_ascii_uppercase(), words_pattern(&[&word[1..]])))
                        .collect::<Vec<_>>()
                        .join("|")
                )
            ),
            // `xcrun altool --apiKey ID`: App Store Connect's 10-character key id, which names the
            // `.p8` private key the tool reads, not a secret (the words before it are scanned).
            r"(?P<altool>(?-u:\b)altool[ \t][^\r\n]*?--apiKey[ \t]+)(?P<altool_val>[A-Z0-9]{10})(?-u:\b)".to_owned(),
            // Kerberos keys printed by `klist -k -K`: `(enctype)  (0xHEX)`.
            r"(?P<krb>\((?i:aes|des|des3|rc4|arcfour|camellia)[A-Za-z0-9-]*\)[ \t]+\(0x)(?P<krb_val>[0-9a-fA-F]{16,})".to_owned(),
            // AWS's listing of access keys (`list-access-keys` as a table or text): a key's id, its
            // creation date and its status. AWS documents the id as not secret (every signed request
            // sends it), and no secret key is ever listed there.
            r#"(?P<akid_meta>(?:(?m:^)ACCESSKEYMETADATA\t)?(?-u:\b)A(?:KIA|SIA)[A-Z0-9]{16}[ \t|,"':]+[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.+Z-]+[ \t|,"':]+(?:Active|Inactive)(?-u:\b))"#.to_owned(),
            // `dotnet user-secrets set` confirmation.
            r"(?P<saved_pre>Successfully saved [^\r\n]*? = )(?P<saved_val>[^\r\n]*?)(?P<saved_post> to the secret store\.)".to_owned(),
            // The line after `terraform output [-raw|-json] NAME`: the output's value, which Terraform
            // prints unmarked even when the output is sensitive.
            // A value printed without a line break runs into the next prompt (`VALUE$ terraform
            // output ...`): the prompt and its command stay. A line of five dashes or more is no
            // value: it starts a PEM block (a decoded `tls.key`), which the PEM form takes whole.
            format!(
                r"(?P<tf_output>{terraform_output}\r?\n)(?P<tf_val>-{{0,4}}[^\r\n+$>#%-][^\r\n]*?|[+$>#%](?:[^ \t\r\n][^\r\n]*?)?)(?P<tf_glued>\$[ \t]+[A-Za-z][^\r\n]*)?\r?(?m:$)"
            ),
            // The values of a list of columns, by position (see [`columns_and_values`](super::tables::columns_and_values)).
            format!(
                r#"(?P<cols>{column_list}\r?\n?[ \t]*(?:(?i:values)|values:[ \t]*new[ \t]*object\[\])[ \t]*[({{])(?P<cols_vals>(?:'[^'\r\n]*'|"[^"\r\n]*"|[^'"(){{}}\r\n])*)"#
            ),
            // The line an `echo` of a secret-named variable printed (see [`echoed_secrets`](super::cli::echoed_secrets)).
            format!(r"(?P<echo>{echo_command}\r?\n)(?P<echo_out>[^\r\n]*)"),
            // `expect` answering a password or passphrase prompt: the `send` string (its `\r` stays).
            format!(
                r#"(?P<expect_send>{expect_prompt}[^\r\n]*?(?:\r?\n[ \t]*)?send[ \t]+(?:--[ \t]+)?")(?P<send_val>(?:[^"\\\r\n]|\\[^rn\r\n])+)"#
            ),
            // A `.netrc` entry on one line (`machine HOST login USER password PASSWORD`), or its
            // `password` on the line after its `login`.
            format!(
                r#"(?P<netrc>(?:(?-u:\b)(?:machine[ \t]+\S+|default)(?:[ \t]+(?:login|account|port)[ \t]+\S+)*[ \t]+|{netrc_login}\n[ \t]*)password[ \t]+)(?P<netrc_val>"(?:[^"\\\r\n]|\\.)*"|\S+)"#
            ),
            // A password sent in a protocol transcript: Redis `MONITOR`'s `"AUTH" ["user"] "pw"`,
            // IMAP's `TAG LOGIN user "pw"`, FTP's `PASS pw` after a client marker (`> `, `C: `),
            // so a test runner's `PASS  file` is not one.
            // SMTP's SASL: `AUTH PLAIN <base64>`, and the answer to `334 UGFzc3dvcmQ6` (base64
            // of `Password:`) on the next line. Azure Pipelines' `##vso[task.setsecret]VALUE` and
            // `##vso[task.setvariable ...;issecret=true]VALUE` name their value a secret too.
            concat!(
                r#"(?P<proto_auth>"(?i:auth)"[ \t]+(?:"[^"\r\n]*"[ \t]+)?"|(?-u:\b)[A-Za-z0-9]{1,8} LOGIN[ \t]+(?:"[^"\r\n]*"|[^\s"]+)[ \t]+"|(?m:^)(?:> |C: |--> )PASS[ \t]+"#,
                r"|(?-u:\b)AUTH[ \t]+(?:",
                sasl_credential_mechanisms!(),
                r")[ \t]+|(?-u:\b)334 UGFzc3dvcmQ6[ \t]*\r?\n(?:C: |> |--> )?",
                r"|##vso\[task\.setsecret\]|##vso\[task\.setvariable [^\]\r\n]*(?i:issecret=true)[^\]\r\n]*\])",
                r#"(?P<proto_auth_val>[^"\r\n]+)"#,
            )
            .to_owned(),
            // An Erlang or Elixir tuple `{password, <<"...">>}` / `{:password, "..."}`, and a CSV
            // row whose first cell names a secret (`"Smtp:Password","...",...`): judged by the name.
            format!(
                r#"(?P<tuple>\{{[ \t]*:?(?P<tuple_name>[A-Za-z_]*(?i:{strong}|{last})[A-Za-z_]*),[ \t]*(?:<<)?)(?P<tuple_val>"(?:[^"\\\r\n]|\\.)*")"#
            ),
            // A table whose header names a secret column (a Gherkin or Markdown pipe table, CSV with
            // a header line): the cells of that column, row by row (see [`table_row`]). A pipe
            // table is taken whole from its first line, whatever that line holds, so that a row
            // with a secret's name in a table of names and values (`| API_KEY | ... |` under `|
            // Variable | Value |`) is not read as the header of the rows below it.
            r"(?m:^)(?P<ptab_head>[ \t]*\|[^\r\n]*\|[ \t]*\r?\n)(?P<ptab_rows>(?:[ \t]*\|[^\r\n]*(?:\r?\n|\z))+)".to_owned(),
            format!(r"(?m:^)(?P<ctab_head>(?:{csv_header})\r?\n)(?P<ctab_rows>(?:[^\r\n]*,[^\r\n]*(?:\r?\n|\z))+)"),
            // A box-drawn table (Spectre.Console, `sqlite3 -box`, Nushell) from its header row, which
            // has a rule under it (`├───┼───┤`): its rules and rows, each row judged as a pipe
            // table's is.
            r"(?m:^)(?P<xtab_head>[ \t]*[│┃║][^\r\n]*[│┃║][ \t]*\r?\n)(?P<xtab_rows>[ \t]*[\x{2500}\x{2501}\x{2504}-\x{2550}\x{2552}-\x{257F}][^\r\n]*(?:\r?\n|\z)(?:[ \t]*[\x{2500}-\x{257F}][^\r\n]*(?:\r?\n|\z))*)".to_owned(),
            // A table ruled by dashes under a header that names a secret column (`sqlcmd`, `az ...
            // -o table`): the cells of that column, row by row, to the first blank line (see
            // [`ruled_row`]).
            format!(
                r"(?m:^)(?P<rtab_head>{ruled_header}\r?\n)(?P<rtab_rule>{RULE_LINE}\n)(?P<rtab_rows>(?:[ \t]*[^\s][^\r\n]*(?:\r?\n|\z))+)",
                ruled_header = ruled_header()
            ),
            // A box-drawn listing of names and values: two or more rows right under its top border
            // (a header would have a border under it), each judged by its name (see [`listing_row`]).
            r"(?m:^)(?P<btab_top>[ \t]*\+-[-+]*\+[ \t]*\r?\n)(?P<btab_rows>(?:[ \t]*\|[^|\r\n]*\|[^|\r\n]*\|[ \t]*\r?\n){2,})".to_owned(),
            format!(
                r#"(?m:^)(?P<csv>[ \t]*"(?P<csv_name>[^"\r\n]*(?i:{strong}|{last})[^"\r\n]*)",)(?P<csv_val>"(?:[^"\r\n]|"")*")"#
            ),
            // A row of two cells of a table drawn with box characters (Nushell's record, `sqlite3
            // -box`'s `name │ value`, Spectre.Console): the second cell as secret as the first names
            // it (see [`replace_contexts`]).
            r"(?m:^)(?P<box>[ \t]*[│┃║][ \t]*)(?P<box_name>[^│┃║\s](?:[^│┃║\r\n]*[^│┃║\s])?)(?P<box_mid>[ \t]*[│┃║][ \t]*)(?P<box_val>[^│┃║\s](?:[^│┃║\r\n]*[^│┃║\s])?)(?P<box_end>[ \t]*[│┃║][ \t]*\r?)(?m:$)".to_owned(),
            // Two or more lines of `hexdump -C` (offset, 16 bytes in hex, the bytes as text between
            // `|`): the bytes are read as the text they dump (see [`hexdump_block`]).
            format!(r"(?m:^)(?P<hexdump>{HEXDUMP_LINE}(?:\n{HEXDUMP_LINE})+)"),
            // A minisign secret key: the base64 line after its `untrusted comment: ... secret key`.
            r"(?P<minisign>untrusted comment:[^\r\n]*secret key[ \t]*\r?\n)(?P<minisign_val>[A-Za-z0-9+/=]{40,})".to_owned(),
            // A TLS key log (`SSLKEYLOGFILE`, NSS format): `LABEL <client random> <secret>`.
            r"(?m:^)(?P<keylog>(?:CLIENT_RANDOM|[A-Z]+(?:_[A-Z]+)*_SECRET(?:_[0-9]+)?)[ \t]+[0-9a-fA-F]{32,}[ \t]+)(?P<keylog_val>[0-9a-fA-F]{32,})".to_owned(),
            // A YAML block scalar under a secret name (`token: >-`, `key: |`): its lines of a
            // token's alphabet, more indented, are the value.
            format!(
                r#"(?P<block>(?m:^)[ \t]*(?:-[ \t]+)?["']?(?P<block_name>[A-Za-z0-9_.-]*(?i:{strong}|{last})[A-Za-z0-9_.-]*)["']?:[ \t]*[|>][+-]?[0-9]?[ \t]*)(?P<block_val>(?:\r?\n{BLOCK_MORE})+)"#
            ),
            // A container named for a secret whose `value` member comes next, on its line or
            // the next: an ARM parameter (`"adminPassword": {` / `"value": "..."`), unattend.xml's
            // `<Password>` / `<Value>...</Value>`.
            format!(
                r#"(?P<container>(?:"(?P<container_name>[^"\r\n]*(?i:{strong}|{last})[^"\r\n]*)"[ \t]*:[ \t]*\{{|<(?P<container_el>[A-Za-z0-9_.:-]*(?i:{strong}|{last})[A-Za-z0-9_.:-]*)>)[ \t]*(?:\r?\n[ \t]*)?(?:"(?i:value)"[ \t]*:[ \t]*|<(?i:value)>))(?P<container_val>"(?:[^"\\\r\n]|\\.)*"|[^<"\r\n]+)"#
            ),
            // A `.pgpass` line: `host:port:database:user:password` (`\:` escapes a colon); the
            // port is a number or `*`, and no field but the password holds a blank, so compiler
            // messages (`file:12:5: error: ...`) are not taken for one; nor does the host hold `=`
            // or `&`, so a SAS query's times (`se=...T18:00:00Z&st=...T10:00:00Z&...&sig=`, as the
            // portal writes them) are not either.
            r"(?m:^)(?P<pgpass>[ \t]*(?:[^\s:\\#=&]|\\.)(?:[^\s:\\=&]|\\.)*:(?:[0-9]+|\*):(?:[^\s:\\]|\\.)*:(?:[^\s:\\]|\\.)*:)(?P<pgpass_val>(?:[^\s:\\]|\\.)(?:[^\r\n:\\]|\\.)*)\r?(?m:$)".to_owned(),
            // PHP's `var_dump`: `["password"]=>` and, on the next line, `string(7) "..."`.
            format!(
                r#"(?P<vardump>{vardump_key}\r?\n[ \t]*string\([0-9]+\)[ \t]*")(?P<vardump_val>[^"\r\n]*)""#
            ),
            // EF Core's parameter values (sensitive data logging): `[Parameters=[@p0='...', ...], CommandType=`,
            // and the SQL logged after them (lines indented by the console logger, or starting with a
            // statement's keyword), which says the column each parameter fills.
            r"(?P<ef>\[Parameters=\[)(?P<ef_list>[^\r\n]*?)(?P<ef_end>\],[ \t]*CommandType=)(?P<ef_sql>[^\r\n]*(?:\r?\n(?:[ \t]+|(?i:set|insert|update|delete|merge|select|values|output|returning|when|where|from|with|declare)(?-u:\b)|\()[^\r\n]*)*)".to_owned(),
            // A configuration directive `name value` alone on its line, one blank between
            // (`requirepass ...` of redis.conf; two or more make a table row): the value is a
            // secret when the name says so (see [`replace`]).
            format!(
                r#"(?m:^)(?P<directive>[ \t]*(?:[A-Za-z0-9_][A-Za-z0-9_.-]*)?(?i:{strong}|{last}|requirepass|masterauth)[A-Za-z0-9_.-]* )(?P<directive_val>"[^"\r\n]*"|'[^'\r\n]*'|[^\s"']+)(?P<directive_end>[ \t]*\r?)(?m:$)"#
            ),
            // Oracle's `user/password@database` after SQL*Plus and its tools, or `CONNECT`.
            r#"(?P<oracle>(?-u:\b)(?i:sqlplus|sqlldr|expdp|impdp|rman|dgmgrl|conn|connect)(?:\.exe)?(?:[ \t]+-[A-Za-z]+)*[ \t]+["']?[A-Za-z0-9_$#.]+/)(?P<oracle_val>"[^"\r\n]*"|[^@\s/"']+)"#.to_owned(),
            // A PHP stack frame of a function whose third argument is a password
            // (`PDO->__construct('mysql:host=db', 'root', 'S3cret')`, `mysqli_connect`, `ldap_bind`...).
            r#"(?P<php_call>(?-u:\b)(?:PDO->__construct|mysqli->(?:__construct|real_connect|connect)|mysqli_(?:real_)?connect|mysql_p?connect|ldap_bind|ldap_sasl_bind|ftp_login|ssh2_auth_password|imap_open|oci_p?connect|oci_new_connect|db2_p?connect)\((?:[ \t]*(?:'(?:[^'\\\r\n]|\\.)*'|"(?:[^"\\\r\n]|\\.)*"|Object\([^()\r\n]*\)|[^,()'"\r\n]*)[ \t]*,){2}[ \t]*)(?P<php_val>'(?:[^'\\\r\n]|\\.)*'|"(?:[^"\\\r\n]|\\.)*"|[^,()'"\r\n]+)"#.to_owned(),
            // SQL that sets a login's password: `IDENTIFIED [WITH plugin] BY '...'` (MySQL, ClickHouse,
            // Oracle).
            r#"(?P<sql_pw>(?-u:\b)(?i:identified)(?:[ \t]+(?i:with)[ \t]+[A-Za-z0-9_]+)?[ \t]+(?i:by)(?:[ \t]+(?i:password))?[ \t]+)(?P<sql_pw_val>N?'(?:[^'\r\n]|'')*'|"[^"\r\n]*")"#.to_owned(),
            // A Terraform variable named for a secret and its `default`, a few attributes down
            // (`variable "db_password" {` / `type = string` / `default = "..."`).
            format!(
                r#"(?P<hcl>(?m:^){HCL_VARIABLE_START}"(?P<hcl_name>[^"\r\n]*(?i:{strong}|{last})[^"\r\n]*)"[ \t]*\{{[ \t]*\r?\n(?:{HCL_ATTRIBUTE}[^\r\n]*\r?\n)*?{HCL_DEFAULT})(?P<hcl_val>{HCL_VALUE})"#
            ),
            // A T-SQL variable declared with its value (`DECLARE @__password_1 nvarchar(4000) = N'...'`,
            // EF Core's `ToQueryString`): as secret as the variable's name.
            r#"(?P<declare>(?-u:\b)(?i:declare)[ \t]+@(?P<declare_name>[A-Za-z0-9_]+)[ \t]+[A-Za-z0-9_]+(?:\([^)\r\n]*\))?[ \t]*=[ \t]*)(?P<declare_val>N?'(?:[^'\r\n]|'')*'|[^\s;,]+)"#.to_owned(),
            // Data annotations' validation failure of a member with its value (`'Password' with the
            // error: '...' (value '...')`): as secret as the member's name.
            r#"(?P<dav>'(?P<dav_name>[A-Za-z0-9_.]+)' with the error: '(?:[^'\r\n]|'')*' \(value )(?P<dav_val>'[^'\r\n]*')"#.to_owned(),
            // Azure Pipelines' `##vso[task.setvariable variable=NAME;...]VALUE`: as secret as NAME
            // (one marked `issecret=true` is a secret whatever its name, above).
            r"(?P<vso_var>##vso\[task\.setvariable[ \t][^\]\r\n]*?variable=(?P<vso_name>[^;\]\r\n]+)[^\]\r\n]*\])(?P<vso_val>[^\r\n]+)".to_owned(),
            // A web server's directive that sets a header (Caddy's `header_up X-Api-Key VALUE`,
            // nginx's `proxy_set_header`): the value as secret as the header's name.
            r#"(?P<hdr_dir>(?-u:\b)(?:header_up|header_down|proxy_set_header|add_header|grpc_set_header|more_set_headers)[ \t]+[+-]?(?P<hdr_dir_name>[A-Za-z][A-Za-z0-9-]*)[ \t]+)(?P<hdr_dir_val>"[^"\r\n]*"|[^\s;"]+)"#.to_owned(),
            // Batch 11. An installer's log: Windows Installer's `PROPERTY CHANGE: Adding NAME property.
            // Its value is '...'.` (`Modifying ...: Its current value is '...'. Its new value: '...'.`)
            // and WiX Burn's `Setting string variable 'NAME' to value '...'`: as secret as NAME.
            r#"(?P<msi>PROPERTY CHANGE: (?:Adding|Modifying) (?P<msi_name>[A-Za-z0-9_.]+) property\. Its (?:current )?value is )(?P<msi_val>'[^'\r\n]*')(?:(?P<msi_mid>\. Its new value: )(?P<msi_new>'[^'\r\n]*'))?"#.to_owned(),
            // So is any quoted name with its value in a sentence (batch 13: a config transform's
            // `Key 'Jwt:SigningKey' with value '...' in appsettings.Release.json overrides ...`).
            r#"(?P<burn>(?:Setting (?:string |numeric |version |formatted )?variable|(?-u:\b)(?i:key|setting|variable|property|parameter)) ['"](?P<burn_name>[^'"\r\n]+)['"] (?:to|with|has) value )(?P<burn_val>'[^'\r\n]*'|"[^"\r\n]*"|[^\s'"]+)"#.to_owned(),
            // A tool's `--key NAME --value VALUE` options (Bitrise's `envman add`): as secret as NAME.
            format!(
                r"(?P<opt_kv>(?:(?m:^)|[ \t])--?(?i:key|name)[ \t=]+(?P<opt_kv_name>[A-Za-z0-9_.:-]+)[ \t]+--?(?i:value)[ \t=]+)(?P<opt_kv_val>{CLI_VALUE})"
            ),
            // A name and its value as a call's first two arguments (`[assembly:
            // AssemblyMetadata("SyncfusionLicense", "...")]`, `SetEnvironmentVariable("API_KEY",
            // "...")`): as secret as the name.
            r#"(?P<argpair>\([ \t]*"(?P<argpair_name>[A-Za-z0-9_.:-]+)"[ \t]*,[ \t]*)(?P<argpair_val>"(?:[^"\\\r\n]|\\.)*")"#.to_owned(),
            // ASP.NET Core Identity's user tokens as a database client lists them (`UserId|[AspNetUserStore]|
            // AuthenticatorKey|VALUE`): the authenticator key, recovery codes and every other token
            // the user store keeps are secret.
            r"(?P<user_token>\[AspNetUserStore\][ \t]*[|,\t][ \t]*[A-Za-z]+[ \t]*[|,\t][ \t]*)(?P<user_token_val>[^\s|,]+)".to_owned(),
        ]);
    }
    if forms == Forms::All {
        // A command line whose options or positionals are secret only for that command (see
        // [`COMMANDS`]), with the lines a shell continuation (`\` at a line's end) adds to it, optionally assigned to a PowerShell variable (`$pw = ConvertTo-SecureString ...`).
        let commands = COMMANDS
            .iter()
            .map(|command| {
                let (first, rest) = command.words.split_first().expect("a command has words");
                let rest: String = rest.iter().map(|word| format!(r"[ \t]+{}", regex::escape(word))).collect();
                format!(r#"{}(?:64)?(?:\.exe)?"?{rest}"#, regex::escape(first))
            })
            .collect::<Vec<_>>()
            .join("|");
        rules.push(format!(
            r"(?P<segment>(?P<assign>\$[A-Za-z_][A-Za-z0-9_:]*[ \t]*=[ \t]*)?(?-u:\b)(?i:{commands}|user-secrets)[ \t](?:[^\r\n\\]|\\\r?\n|\\)*)"
        ));
    }
    if labelled {
        // Cookies and options whose value is secret in every tool.
        rules.extend([
            r#"(?P<cookie>(?-u:\b)(?i:set-cookie|cookie)"?[ \t]*:[ \t]*"?)(?P<cookie_val>[^\r\n"]*)"#.to_owned(),
            // `pass` ends an option only as a word of its own (`--pass`, `--ks-pass`, not `--bypass`).
            format!(
                r"(?P<flag>(?-u:\B)--?(?:[A-Za-z0-9-]*?(?i:{options})|(?:[A-Za-z0-9]+-)*(?i:pass))(?:[ \t]+|=|:))(?P<flag_val>{CLI_VALUE})"
            ),
            // The same as a Windows option, its value attached (`/SourcePassword:x`, `/password=x`).
            format!(r"(?P<wflag>(?:(?m:^)|[ \t])/[A-Za-z]*(?i:{options})[:=])(?P<wflag_val>{CLI_VALUE})"),
        ]);
    }
    // Credentials of HTTP and URLs.
    let param = format!(r"[A-Za-z_][A-Za-z0-9_-]*[ \t]*=[ \t]*(?:{AUTH_PARAM_VALUE})");
    rules.extend([
        // An authorization scheme with parameters (`Digest ... response="..."`, `OAuth
        // oauth_token="...", oauth_signature="..."`, `Token token="..."`, AWS Signature V4), also
        // as a member of JSON logged inside a JSON string (`\"Authorization\":\"Digest ...`).
        format!(
            r#"(?P<hdrp>[nrt]?(?i:(?:proxy-)?authorization)(?:\\*["'])?[ \t]*[:=][ \t]*(?:b?\\*["'])?(?i:digest|oauth|token|hmac|hmac-sha256|signature|aws4-hmac-sha256|mac|vapid|hoba)[ \t]+)(?P<hdrp_params>{param}(?:[ \t]*,[ \t]*{param})*)"#
        ),
        r#"(?P<hdr>[nrt]?(?i:(?:proxy-)?authorization)["']?[ \t]*[:=][ \t]*(?:b?["'])?)(?P<hdr_scheme>(?i:bearer|basic|digest|negotiate|ntlm|token|sharedaccesssignature|sharedkey|sharedkeylite|ssws|apikey|key|hmac)[ \t]+|(?i:key|token|api[-_]?key)=|[A-Z][A-Za-z]{1,20}(?:-[A-Z][A-Za-z]{1,20})?[ \t]+)?(?P<hdr_val><[^<>\s"']+>|[^\s"',;\\<]+(?:\\\r?\n[ \t]*[A-Za-z0-9._~+/=-]+)*)"#.to_owned(),
        r"(?P<bearer>(?-u:\b)(?i:bearer)[ \t]+)(?P<bearer_val>[A-Za-z0-9._~+/-]{8,}=*)".to_owned(),
        // The password may hold a `#` (a URL .NET failed to parse prints it as written), the user
        // an unencoded `@` (an e-mail address, Azure Database's `user@server`): the last `@` ends
        // the credentials.
        concat!(r"(?P<url>(?-u:\b)", url_scheme!(), r#"[^\s:/?#@"'<>]*(?:@[^\s:/?#@"'<>]*)?:)[^\s/?@"'<>]+@"#).to_owned(),
        concat!(r"(?P<url_user>(?-u:\b)", url_scheme!(), r")(?P<url_token>[A-Za-z0-9._~%+-]{16,})@").to_owned(),
    ]);
    if labelled {
        // Query parameters and XML that name a secret.
        rules.extend([
            // Also after an `&` escaped in HTML (`...?userId=...&amp;code=...` of an e-mail's link).
            r#"(?P<query>(?:[?&#]|&amp;)(?i:code|appid|app_id)=)(?P<query_val>[^\s&#"'<>]+)"#.to_owned(),
            // An element named by its `name` (or `key`) attribute whose `<value>` child holds the
            // value, on its line or the next: a `.resx` `<data name="ApiKey">`, an `App.config`
            // `<setting name="ApiKey" serializeAs="String">` (see [`replace_contexts`]).
            format!(
                r#"(?P<xml_named>(?P<xml_named_tag><[A-Za-z][A-Za-z0-9_.:-]*(?:[ \t]+{attr})*?[ \t]+(?i:key|name)[ \t]*=[ \t]*"(?P<xml_named_name>[^"\r\n]*(?i:{strong}|{last}|{weak})[^"\r\n]*)"(?:[ \t]+{attr})*[ \t]*>)[ \t]*(?:\r?\n[ \t]*)?<(?i:value)>)(?P<xml_named_val>[^<\r\n]+)"#
            ),
            // An XML element whose `key` or `name` attribute names a secret, its attributes in
            // any order (`<add value="..." key="ClearTextPassword" />`).
            format!(
                r#"(?P<xml_tag><[A-Za-z][A-Za-z0-9_.:-]*(?:[ \t]+{attr})*?[ \t]+(?i:key|name|include)[ \t]*=[ \t]*(?:"[^"\r\n]*(?i:{strong}|{last})[^"\r\n]*"|'[^'\r\n]*(?i:{strong}|{last})[^'\r\n]*')(?:[ \t]+{attr})*[ \t]*/?>)"#
            ),
            // A `key|name=... value=...` pair outside a tag, quoted any way (a runsettings
            // `TestRunParameters.Parameter(name=\"ApiKey\", value=\"...\")`, TeamCity's
            // `##teamcity[setParameter name='env.X' value='...']`, or bare as gRPC's `Metadata.Entry`
            // prints it, `[Entry: key=x-api-key, value=...]`): the value is as secret as the name.
            format!(
                r#"(?P<xml_kv>(?-u:\b)(?i:key|name)[ \t]*=[ \t]*(?P<kv_name>{QUOTED}|[A-Za-z0-9_.:-]+)[ \t]*,?[ \t]*(?i:value)[ \t]*=[ \t]*)(?P<kv_val>{QUOTED}|[^\s,)\]"']+)"#
            ),
            format!(
                r"<(?P<xml_el>[A-Za-z0-9_.:-]*(?:(?i:{strong}|{weak})[A-Za-z0-9_.:-]*|(?i:{last})))(?P<xml_attrs>(?:[ \t]+{attr})*[ \t]*)>(?:(?P<xml_val>[^<\r\n]+)|(?P<xml_cdata><!\[CDATA\[)(?P<xml_cdata_val>(?:[^\]\r\n]|\][^\]\r\n])+)\]\]>)</"
            ),
        ]);
    }
    // Tokens known by their shape.
    rules.extend([
        r"(?P<login>/login\?t=)[A-Za-z0-9_-]+".to_owned(),
        // A Mapbox public token (`pk.` and a JWT's shape) is public by design; `sk.` is secret.
        r"(?P<public_token>(?-u:\b)pk\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)".to_owned(),
        // JWTs (three parts) and JWEs (five parts; the encrypted key is empty with `dir`).
        r"(?P<jwt>(?-u:\b)eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)?)".to_owned(),
        // A JWT wrapped over lines (a log that breaks long values): its first line, the start
        // of a JWT alone on its line, and the lines of its alphabet that follow.
        // A JWT that a log or console broke at a column, after other words on its first line:
        // the break falls inside one of its parts (`... token: eyJ...eyJzdWIi` / `OiJ3...sig`).
        r"(?P<jwt_split>(?-u:\b)eyJ[A-Za-z0-9_-]{10,}(?:\.[A-Za-z0-9_-]*\r?\n[A-Za-z0-9_-]*|\r?\n[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)\.[A-Za-z0-9_-]{8,})".to_owned(),
        format!(r"(?P<jwt_wrap>{WRAPPED_TOKEN_START}(?:\r?\n{WRAPPED_TOKEN_MORE})*)"),
        // Webhook URLs whose path carries the secret: Slack, Discord, Microsoft Teams.
        r"(?P<webhook>hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9]+/[A-Za-z0-9]+/|discord(?:app)?\.com/api/webhooks/[0-9]+/|\.webhook\.office\.com/webhookb2/[^\s/]+/IncomingWebhook/)[A-Za-z0-9_-]{16,}(?:/[A-Za-z0-9_-]+)*".to_owned(),
        // A secret as a URL path segment after a marker (Mattermost `/hooks/ID`, IFTTT
        // `/with/key/KEY`, Loggly `/inputs/TOKEN`, MyGet `/auth/KEY`, anaconda.org `/t/TOKEN`):
        // hidden when it looks generated.
        r#"(?P<path_tok>://[^\s/"'<>]+(?:/[^\s/"'<>]+)*?/(?:hooks|with/key|inputs|bulk|auth|t|receiver/v1/(?:http|otlp))/)(?P<path_tok_val>[A-Za-z0-9_-]{16,})"#.to_owned(),
        // NATS NKEY seeds (base32 behind `S` and the key's type).
        r"(?-u:\b)(?P<nkey>S[UOANCAXP])[A-Z2-7]{54,56}(?-u:\b)".to_owned(),
        // An authenticator app's shared key as sign-up pages show it: base32 in groups of four
        // (ASP.NET Core Identity's `<kbd>7nwf ifwi ...</kbd>`), with a digit (see [`replace`]).
        r"(?-u:\b)(?P<totp_key>[a-z2-7]{4}(?: [a-z2-7]{4}){5,}(?: [a-z2-7]{1,3})?|[A-Z2-7]{4}(?: [A-Z2-7]{4}){5,}(?: [A-Z2-7]{1,3})?)(?-u:\b)".to_owned(),
        // Mailgun's private API keys: 32 hex digits, then two groups of 8.
        r"(?-u:\b)(?P<mailgun>[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})(?-u:\b)".to_owned(),
        // Mailchimp's API keys: 32 hex digits, then the data centre (`-us21`).
        r"(?-u:\b)(?P<mailchimp>[0-9a-f]{32}-us[0-9]{1,2})(?-u:\b)".to_owned(),
        // A BitLocker recovery password (`manage-bde -protectors -get`, `Get-BitLockerVolume`):
        // eight groups of six digits, a shape nothing else has.
        r"(?-u:\b)(?P<bitlocker>[0-9]{6}(?:-[0-9]{6}){7})(?-u:\b)".to_owned(),
        // Mollie API keys: `live_` or `test_` and 30 letters and digits.
        r"(?-u:\b)(?P<mollie>(?:live|test)_)(?P<mollie_val>[A-Za-z0-9]{30})(?-u:\b)".to_owned(),
        DPAPI_BLOB.to_owned(),
        format!(r"(?-u:\b)(?P<tok_prefix>{prefixes})[A-Za-z0-9_-]{{16,}}(?:[./+][A-Za-z0-9_-]+)*"),
        r"(?-u:\b)(?P<octopus>API-)[A-Z0-9]{25,32}(?-u:\b)".to_owned(),
        // Tokens whose prefix is a common word, so only their hex body tells them: Databricks,
        // Pulumi, Supabase, Mailgun; and the hex tokens [`VENDOR_TOKEN`] leaves to a named prefix
        // (a hex body reads as a hash): ElevenLabs' `sk_`, LangSmith's `lsv2_pt_` / `lsv2_sk_` (a
        // second hex part after `_`), Trello's `ATTA` (eight upper-case hex digits at the end).
        r"(?-u:\b)(?P<hex_prefix>dapi|pul-|sbp_|key-|sk_|lsv2_(?:pt|sk)_|ATTA)[0-9a-f]{32,}(?:_[0-9a-f]{8,}|[0-9A-F]{8})?(?-u:\b)".to_owned(),
        // Tokens whose prefix is glued to a random body of a fixed length: crates.io (`cio` and 32
        // letters and digits), Airtable (`pat`, 14 characters, `.`, 64 hex digits), Braintree
        // (`access_token$production$` and two random parts), Asana (`2/<user>/<id>:` and 32 hex).
        r"(?-u:\b)(?P<glued_prefix>cio)[A-Za-z0-9]{32}(?-u:\b)".to_owned(),
        r"(?-u:\b)(?P<glued_pat>pat)[A-Za-z0-9]{14}\.[0-9a-f]{64}(?-u:\b)".to_owned(),
        r"(?-u:\b)(?P<braintree>access_token\$(?:production|sandbox|development)\$)[a-z0-9]{16}\$[0-9a-f]{32}(?-u:\b)".to_owned(),
        r"(?-u:\b)(?P<asana>[0-9]/[0-9]{10,20}/[0-9]{10,20}:[0-9a-f]{32})(?-u:\b)".to_owned(),
        // LaunchDarkly SDK and mobile keys: `sdk-` or `mob-` and a GUID.
        r"(?-u:\b)(?P<guid_prefix>sdk-|mob-)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?-u:\b)".to_owned(),
        // Terraform Cloud: `<14 characters>.atlasv1.<token>`.
        r"(?-u:\b)[A-Za-z0-9]{14}(?P<atlas>\.atlasv1\.)[A-Za-z0-9_-]{40,}".to_owned(),
        // An AWS resource name names, it does not hold (`arn:aws:secretsmanager:...:secret:prod/db`).
        r#"(?P<arn>(?-u:\b)arn:aws[a-z-]*:[a-z0-9-]+:[a-z0-9-]*:[0-9]*:[^\s"',;]+)"#.to_owned(),
        // age secret keys (bech32, upper case) and plugin identities.
        r"(?-u:\b)(?P<age>AGE-(?:SECRET-KEY|PLUGIN-[A-Z0-9]+)-1)[0-9A-Z]{20,}".to_owned(),
        r"(?-u:\b)(?P<sendgrid>SG\.)[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}".to_owned(),
        r"(?-u:\b)(?P<telegram>(?:bot)?[0-9]{8,10}:)AA[A-Za-z0-9_-]{30,}".to_owned(),
        r"(?P<aad>(?-u:\b)[A-Za-z0-9_~.-]{3}[0-9]Q~[A-Za-z0-9_~.-]{31,34})".to_owned(),
        // Firebase Cloud Messaging: a legacy server key (`AAAA...:APA91b...`) or a registration token.
        r"(?P<fcm>(?-u:\b)[A-Za-z0-9_-]{11}:APA91b[A-Za-z0-9_-]{20,})".to_owned(),
        // An `APP.KEY:SECRET` API key (Ably): the app's and the key's ids stay, the secret after
        // the colon is hidden when it looks generated.
        r"(?-u:\b)(?P<idpair>[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{6}:)(?P<idpair_val>[A-Za-z0-9_+/=-]{16,})".to_owned(),
        // A token known by its prefix right after an ANSI colour code (`\x1b[38;5;9msk-...`): the
        // code stays, the token is read as if a blank came before it.
        format!(r"(?P<ansi_tok>\x1b\[[0-9;]*m)(?P<ansi_tok_val>(?:{prefixes})[^\s\x1b]*)"),
    ]);
    if labelled {
        // Values named by a label: JSON and YAML name/value pairs, tables, `key: value`.
        rules.extend([
            // A test's display name with its named arguments (xUnit's `Ns.Tests.Method(password:
            // "abc")`, as `dotnet test --list-tests` prints a theory's cases): see [`test_arguments`].
            r#"(?P<theory>(?-u:\b)(?:(?:Passed|Failed|Skipped)[ \t]+[A-Z][A-Za-z0-9_]*(?:\.[A-Z][A-Za-z0-9_]*)+|[A-Z][A-Za-z0-9_]*(?:\.[A-Z][A-Za-z0-9_]*){2,})\()(?P<theory_args>[a-z][A-Za-z0-9_]*:[ \t](?:"(?:[^"\\\r\n]|\\.)*"|[^",()\r\n]*)(?:,[ \t]*[a-z][A-Za-z0-9_]*:[ \t](?:"(?:[^"\\\r\n]|\\.)*"|[^",()\r\n]*))*)\)"#.to_owned(),
            // A JSON array under a secret name, one item a line (`"SigningKeys": [` / `"...",`):
            // each item as secret as the name says.
            format!(
                r#"(?P<arr>"(?P<arr_name>[^"\r\n]*(?i:{strong}|{last}|{weak})[^"\r\n]*)"[ \t]*:[ \t]*\[[ \t]*\r?\n)(?P<arr_items>(?:[ \t]*"(?:[^"\\\r\n]|\\.)*"[ \t]*,?[ \t]*\r?\n)+)"#
            ),
            // A JSON object under a name for keys (`"functionKeys": {`, `"systemKeys": {` of `az
            // functionapp keys list`) whose members are strings: each value as a key's (see
            // [`key_map_members`](super::labelled::key_map_members)).
            r#"(?P<kmap>"(?P<kmap_name>[A-Za-z0-9_.-]*(?i:keys))"[ \t]*:[ \t]*\{)(?P<kmap_members>(?:[ \t\r\n]*"(?:[^"\\\r\n]|\\.)*"[ \t]*:[ \t]*"(?:[^"\\\r\n]|\\.)*"[ \t]*,?)+)"#.to_owned(),
            // A connection string's password with blanks in it, unquoted (`Server=db;User Id=app;
            // Password=my pass phrase;Encrypt=true`): from the first pair a connection keyword names
            // (see [`CONNECTION_KEYWORDS`]), through `name=value;` pairs, the password runs to the
            // next `;`, the line's end or a closing quote. Without such pairs before it, blanks end
            // the value (`password=abc was rejected by the server` is a sentence).
            format!(
                r#"(?P<cs_pw>(?-u:\b)(?i:{cs_keywords})[ \t]*=[^;\r\n"'<>]*;(?:{pair_name}=[^;\r\n"'<>]*;)*?[ \t]*(?i:password|pwd)[ \t]*=[ \t]*)(?P<cs_pw_val>{pw_word}(?:[ \t]+{pw_word})+)"#
            ),
            // The same password as the string's first pair (`Password=my pass phrase;Host=db`,
            // `Pwd=a b;Timeout=30`): it runs through blanks to a `;` that another `name=` pair
            // follows, which is kept.
            format!(
                r#"(?P<cs_pw_first>(?-u:\b)(?i:password|pwd)[ \t]*=[ \t]*)(?P<cs_pw_first_val>{pw_word}(?:[ \t]+{pw_word})+)(?P<cs_pw_first_next>;{pair_name}=)"#
            ),
            // A libpq keyword/value string's password with a backslash escape (`host=db user=app
            // password='it\'s a b' dbname=shop`, `password=a\ b`): libpq reads `\'` and `\\` in a
            // value, quoted or not, as a quote and a backslash, and `\ ` in a bare value as a
            // blank, so the value runs past them (a bare value's other backslashes are a Windows
            // path's, which the `key` form takes whole). The keyword pairs before it are kept.
            format!(
                r#"(?P<libpq>(?-u:\b)(?:(?i:{libpq})[ \t]*=[ \t]*(?:'(?:[^'\\\r\n]|\\[^\r\n])*'|(?:[^\s'"\\]|\\[^\r\n])+)[ \t]+)*(?i:password)[ \t]*=[ \t]*)(?P<libpq_val>'(?:[^'\\\r\n]|\\[^\r\n])*\\[^\r\n](?:[^'\\\r\n]|\\[^\r\n])*'|(?:[^\s'"\\]|\\[ \\'])*\\[ \\'](?:[^\s'"\\]|\\[ \\'])*)"#,
                libpq = LIBPQ_KEYWORDS.join("|")
            ),
            // A connection string whose first name has a blank (`Data Source=`, `Contact
            // Points=`) printed bare after its label, as a record's `ToString` does
            // (`ConnectionString = Contact Points=a,b;Password=x;Default Keyspace=y, Timeout = 30`):
            // its pairs run to the `, ` that starts the next member.
            format!(
                r"(?P<cs_label>(?-u:\b)[A-Za-z0-9_.-]*(?i:connection[-_.]?string)[A-Za-z0-9_.-]*[ \t]*[:=][ \t]*)(?P<cs_val>[A-Za-z][A-Za-z0-9_.-]*(?: [A-Za-z0-9_.-]+)+={part}(?:;[ \t]*[A-Za-z][A-Za-z0-9 _.-]*={part})*;?)",
                part = r"[^;,\r\n]*(?:,[^;,=\s][^;,=\r\n]*)*"
            ),
            // A `{"name": SECRET-NAME, ..., "value": VALUE}` pair in JSON text (`az webapp config
            // appsettings list`, `keyvault secret show`, `ssm get-parameter`).
            format!(
                r#"(?P<pair>"(?i:name|key|label)"[ \t]*:[ \t]*"(?P<pair_name>[^"\r\n]*(?i:{strong}|{last})[^"\r\n]*)"(?:[^{{}}]|\{{\}})*?"(?i:value)"[ \t]*:[ \t]*")(?P<pair_val>(?:[^"\\\r\n]|\\.)*)""#
            ),
            // The same pair in YAML, the value on the next line (`- name: X` / `  value: Y`).
            format!(r"(?P<yaml_pair>{yaml_name}\r?\n[ \t]*(?:value|Value):[ \t]*)(?P<yaml_val>[^\r\n]+)"),
            // `terraform output -json`: the `"value"` of an output marked `"sensitive": true`.
            // Also the `"Value"` of an object whose type says it is secret (`"Type": "SecureString"`
            // of `aws ssm get-parameter`, ARM's `securestring`, 1Password's `"type": "CONCEALED"`).
            r#"(?P<sensitive>(?:"sensitive"[ \t]*:[ \t]*true|"(?i:type)"[ \t]*:[ \t]*"(?i:securestring|secureobject|concealed)")[ \t]*,(?:[^{}]|\{\})*?"(?i:value)"[ \t]*:[ \t]*)(?P<sensitive_val>"(?:[^"\\\r\n]|\\.)*"|\[[^\[\]\r\n]*\]|\{[^{}\r\n]*\}|[^\s,{}\[\]"]+)"#.to_owned(),
            // A key-like value under a neutral label: `az ... keys list` ("value"), `functionapp
            // keys list` ("default"), a Data Protection key ring (`<value>`), `az batch account keys
            // list` ("primary", "secondary").
            // The private members of a key: a JWK's `"d"`, `"p"`, `"q"`, `"dp"`, `"dq"`, `"qi"`
            // and `"k"`, RSA's `ToXmlString(true)` elements; PowerShell's `Format-List` `Value : ...`.
            format!(
                r#"(?P<value_label>"(?i:value|default|encoded|primary|secondary)"[ \t]*:[ \t]*"|"(?:{jwk})"[ \t]*:[ \t]*"|<(?:value|P|Q|DP|DQ|InverseQ|D)>|(?m:^)[ \t]*(?:Value|String)(?:[ \t]*:|[ \t]{{2,}})[ \t]*)(?P<value_val>[A-Za-z0-9+/=_-]{{32,}})(?:["<]|[ \t]*\r?(?m:$))"#,
                jwk = JWK_PRIVATE_MEMBERS.join("|")
            ),
            // A JSON member whose value has the exact shape of an Azure Storage account key,
            // whatever its name (`"Storage": "..."` of an excerpt whose parent is not visible), also
            // in JSON logged inside a JSON string (its quotes `\"` or `\u0022`): see
            // [`account_key_under`](super::keys::account_key_under) for the names that keep it.
            format!(
                r#"(?P<account_key>{quote}(?P<account_key_name>[^"\\\r\n]*){quote}[ \t]*:[ \t]*{quote})(?P<account_key_val>{ACCOUNT_KEY_SHAPE})(?P<account_key_close>{quote})"#,
                quote = r#"(?:\\*"|\\u0022)"#
            ),
            // `dotnet user-jwts key`: `Signing Key: '...'`, `New signing key created: '...'`, also
            // naming the issuer or scheme the key is for (`Signing Key for issuer 'X' [is]: '...'`).
            r"(?P<signing_key>(?i:signing key(?: for (?:issuer|scheme|audience) '[^'\r\n]*')?(?: created| is)?): ')[A-Za-z0-9+/=]+".to_owned(),
            // `kubectl describe secret`: `NAME:  18 bytes` is a size, not a value.
            r"(?m:^)(?P<k8s_size>[A-Za-z0-9_.-]+:[ \t]+[0-9]+ bytes)(?m:$)".to_owned(),
            // A template's commented-out sample (`#   secret_access_key: 345` of `rails credentials:edit`):
            // a number of up to three digits in a comment is no secret.
            r"(?m:^)(?P<sample>[ \t]*#[ \t]*[A-Za-z0-9_.-]+:[ \t]+[0-9]{1,3}[ \t]*\r?)(?m:$)".to_owned(),
            // A `NAME   value` row of a table: `Get-ChildItem env:`, `vault login`'s `token   hvs...`,
            // `CLIENT SECRET   ...`. The name (up to three words) has a secret word; two blanks end it.
            format!(
                r"(?m:^)(?P<row>[ \t]*(?:[A-Za-z0-9_.:-]+ ){{0,2}}[A-Za-z0-9_.:-]*(?i:{strong}|{last}|{weak})[A-Za-z0-9_.:-]*(?: [A-Za-z0-9_.:-]+){{0,2}}(?:[ \t]{{2,}}|\t))(?P<row_val>[^\s:=][^\r\n]*)(?P<row_wrap>\r?\n[A-Za-z0-9+/]{{4,}}={{1,2}})?"
            ),
            // A bare value under a secret label may go on over lines after a `\` glued to it (see
            // [`continued_value`]).
            format!(
                r#"(?P<key>[A-Za-z0-9_.-]*(?:(?i:{strong})[A-Za-z0-9_-]*(?::[0-9]+)*(?::(?i:value))?|(?i:{last}|sessionid|sessid|dockerconfigjson)(?:[-_.]?[0-9]+)?)|(?-u:\b)(?i:sig))(?P<key_sep>{LABEL_SEP})(?P<key_val>{VALUE})(?P<key_more>(?:\\\r?\n[A-Za-z0-9+/=_.~-]+)+\$?\r?(?m:$))?(?P<key_words>(?:[ \t]+[A-Za-z]+,?){{2}}(?:[ \t]|\r?(?m:$)))?"#
            ),
            // A value under a weak label; a token qualified by its deployment before a `|` (Convex's
            // deploy keys, `prod:name|...`) is one value. Here and under a secret label, a
            // configuration path may go on with an array's index and `Value` (`SigningKeys:0:Value`).
            // A shorter value with a password's symbol is one word up to a blank, quote, closing
            // bracket, `/` or `=` (see [`password_shaped`](super::keys::password_shaped)), so a
            // URL's path or query is left to the forms that read it.
            format!(
                r#"(?P<weak>(?P<weak_public>(?i:public)[ \t]+)?[A-Za-z0-9_.-]*(?i:{weak})[A-Za-z0-9_-]*(?::[0-9]+)*(?::(?i:value))?(?:[ \t][0-9]{{1,2}})?{LABEL_SEP}(?:\\?["'])?(?:base64:|[xX]')?)(?P<weak_val>(?:(?:prod|dev|preview):[A-Za-z0-9-]+\|)?(?:(?P<weak_pwd>{word}[~^!#*?]{word})|(?:[A-Za-z0-9+/_.=-]|\\/){{16,}}))"#,
                word = r#"[^\s"'`<>,;&|(){}\[\]\\/=]*"#
            ),
            // The word for a password (or "API key") in a sentence, a few words naming what it is
            // for between it and the value, the sentence going on after it (`Geslo za SMTP X je
            // poteklo`, `password for the relay X expired`): the first blank-separated word with a
            // digit after at most three words without one, when it reads as a generated password
            // (see [`replace`]); the words between are words, so a password of symbols and
            // letters is not skipped for a number after it. Listed before `prose`, which would take the first long word of
            // the sentence (`uporabnika`) for the value and leave the password after it.
            format!(
                r#"(?P<prose_skip>(?:(?-u:\b)(?i:password|passphrase|passwd)|(?i:{foreign}|{foreign_keys}))(?:[ \t]+[^\s0-9:：=<>"'«&+*^!#$%~|]{{1,20}}){{1,3}}[ \t]+)(?P<prose_skip_val>[^\s"'<>=&:：，；、。]*[0-9][^\s"'<>&:：，；、。]*)(?P<prose_skip_end>[ \t]|\r?(?m:$))"#
            ),
            // Free text: `password X`, `the password is X`, `token X` (see [`replace`] for what
            // counts as a value there). The value is not an option (`--password`), and the words
            // before a colon have no digit, so a password is not taken for one of them (`پاس ورڈ
            // X ... صارف: name`); a token's name a few words before a colon too (`SNYK_TOKEN from
            // environment: X`).
            // In other languages the word comes with a few words of its sentence before the
            // value (`Nytt lösenord för användaren admin: X`, `臨時密碼：X`, `adgangskode er X`); in
            // English a few words and a colon (`Generated password for app: X`, also after a quoted
            // name: `Parameter 'db-password' resolved from configuration: X`), or a colon that
            // ends the line and the value after a blank line (a mail: `your new key for staging
            // is:` / blank / `X`; without the blank line, a wrapped JWT's first line would be
            // taken for the whole value). The bare word `key` (`configured with key X`,
            // `rejected key 'X'`) names anything from a vault to a fingerprint, so only a random
            // token after it counts (see [`random_key_value`]), and none after `public key`.
            format!(
                r#"(?P<prose>(?P<prose_next>(?-u:\b)(?i:(?P<prose_next_pw>password|passphrase)|(?P<prose_next_key>key)|token|secret){INTRO_TAIL}\r?\n[ \t]*\r?\n[ \t]*)|(?P<prose_public>(?-u:\b)(?i:public[ \t]+key[ \t]+))?(?-u:\b)(?i:(?P<prose_pw>password|passphrase|passwd|pwd)|(?P<prose_cred>credential)|(?:id_|access_|refresh_)?token|secret|(?:api|admin|access|secret|private|master|write|service|search|license|signing|encryption|hmac)[ _-]?key|{foreign_keys})(?:[ \t]+(?i:is|was|set to|to|(?:received|issued|created|generated):?))?[ \t]+|(?P<prose_foreign>(?i:{foreign}|{foreign_keys})(?:[^\r\n:：=<>"«]{{0,60}}?«[ \t]*|[^\r\n:：=<>"0-9]{{0,60}}?(?:[:：][ \t]*|[ \t](?:er|är|là|je|jest|ist|est|es|é|è)[ \t]+)|[ \t]+))|(?P<prose_few>(?i:password|passphrase)(?P<prose_few_quote>["'])?(?:[ \t]+[A-Za-z_][A-Za-z0-9_.-]*){{1,4}}[:：][ \t]*)|(?P<prose_few_tok>(?i:token|secret|api[_-]?key)["']?(?:[ \t]+[A-Za-z_][A-Za-z0-9_.-]*){{1,4}}[:：][ \t]*)|(?P<prose_key>(?P<prose_key_public>(?-u:\b)(?i:public|host|ssh|gpg|pgp|rsa|ecdsa|ed25519|signing|verification)[ \t]+)?(?-u:\b)(?i:key)[ \t]+))(?P<prose_ansi>\x1b\[[0-9;]*m)?(?:(?P<prose_val>"[^"\r\n]+"|'[^'\r\n]+'|&quot;(?:[^&\r\n]|&(?:amp|lt|gt|apos);)+?&quot;)|(?P<prose_word>(?:[^\s"'<>=&，；、。-][^\s"'<>&，；、。]|-[^\s"'<>&，；、。-])[^\s"'<>&，；、。]{{4,}})(?P<prose_end>[ \t，；、。"']|\r?(?m:$)))"#
            ),
            // A line that is a name and a value with the exact shape of an Azure Storage account
            // key (`dotnet user-secrets list`'s `Storage = ...`, `STORAGE=...` of an environment
            // dump, YAML's `Storage: ...`), judged as the JSON member is (see `account_key`). Last
            // of the labelled forms, so a label that says more wins where both start.
            format!(
                r"(?P<account_line>(?m:^)[ \t]*(?:export[ \t]+)?(?P<account_line_name>[A-Za-z_][A-Za-z0-9_.:-]*)[ \t]*[=:][ \t]*)(?P<account_line_val>{ACCOUNT_KEY_SHAPE})(?P<account_line_end>[ \t]*\r?(?m:$))"
            ),
        ]);
    }
    // Last, so that every labelled form that starts at the same place wins (`xai_api_key=...`
    // is judged by its label): a vendor-prefixed token no rule names (see [`VENDOR_TOKEN`]).
    rules.push(VENDOR_TOKEN.to_owned());
    rules
}

/// The lazy DFA's cache of each form per search thread: the largest forms (a label with the lists
/// of secret words) grew theirs to 1.8 MiB over 100 KB of the held-out corpus, near the default
/// 2 MiB, past which the cache is cleared so often that the engine falls back to its much slower
/// NFA search.
const DFA_CACHE_BYTES: usize = 8 << 20;

/// A combined pattern: one alternative per form (see `rules`), matched as their alternation would
/// be (the leftmost match, and of the forms that start there the first listed), but each form
/// compiled and searched on its own. As one alternation, the automaton had to follow every form
/// at once: on secret-dense text almost every byte led it to a new state of thousands of form
/// positions, and it fell back to its slow NFA search, so redaction crawled (`docs/benchmarks.md`).
///
/// Searched on their own, a form whose match was overlapped by an earlier-starting one is searched
/// again from the end of that one, and can read the same stretch of text again: a long form
/// overlapped over and over on one line (`password="docker login -p x" ` repeated) would cost time
/// quadratic in the line. So each search has a budget of bytes read ([`search_budget`]); past it,
/// the rest of the text is matched by the forms' alternation, compiled then, which reads each byte
/// once and gives the same matches.
pub(super) struct Combined {
    forms: Vec<Regex>,
    /// The forms as one alternation, compiled the first time a search runs over its budget.
    alternation: OnceLock<Regex>,
}

/// How many bytes one form may read over a search of `len` bytes before the search goes on with
/// the alternation: its own pass over the text four times over, and 64 KiB for short texts.
fn search_budget(len: usize) -> usize {
    len.saturating_mul(4).saturating_add(64 << 10)
}

impl Combined {
    fn new(forms: Forms) -> Self {
        // A form the smaller sets share with [`FULL`] is compiled once (a clone shares it).
        let compiled: &[Regex] = if forms == Forms::All { &[] } else { &FULL.forms };
        let forms = rules(forms)
            .iter()
            .map(|form| {
                compiled.iter().find(|known| known.as_str() == form).cloned().unwrap_or_else(|| {
                    regex::RegexBuilder::new(form)
                        .dfa_size_limit(DFA_CACHE_BYTES)
                        .build()
                        .expect("redaction form is valid")
                })
            })
            .collect();
        Self { forms, alternation: OnceLock::new() }
    }

    /// Whether any form matches anywhere in `haystack`: one pass of the forms' alternation, where
    /// each form searched on its own would read the whole text once per form.
    pub(super) fn is_match(&self, haystack: &str) -> bool {
        self.alternation().is_match(haystack)
    }

    /// The matches in `haystack`, in order and not overlapping, each with its form's groups.
    pub(super) fn captures_iter<'c, 'h>(&'c self, haystack: &'h str) -> Matches<'c, 'h> {
        self.captures_within(haystack, search_budget(haystack.len()))
    }

    /// [`Self::captures_iter`] with each form allowed to read `budget` bytes.
    fn captures_within<'c, 'h>(&'c self, haystack: &'h str, budget: usize) -> Matches<'c, 'h> {
        let forms = self.forms.len();
        Matches {
            combined: self,
            haystack,
            next: vec![None; forms],
            read: vec![0; forms],
            budget,
            at: 0,
            last_end: None,
        }
    }

    /// The forms as one alternation (compiled on first use; [`warm_up`](super::warm_up) compiles it
    /// ahead, as every redaction now starts with it).
    pub(super) fn alternation(&self) -> &Regex {
        self.alternation.get_or_init(|| {
            let alternatives: Vec<String> = self.forms.iter().map(|form| format!("(?:{})", form.as_str())).collect();
            regex::RegexBuilder::new(&alternatives.join("|"))
                .dfa_size_limit(DFA_CACHE_BYTES)
                .build()
                .expect("the redaction forms' alternation is valid")
        })
    }
}

/// The iterator of [`Combined::captures_iter`].
pub(super) struct Matches<'c, 'h> {
    combined: &'c Combined,
    haystack: &'h str,
    /// Each form's first match at or after `at` once searched (`Some(None)` when it has none):
    /// a match found from an earlier place is still the first one unless it starts before `at`.
    next: Vec<Option<Option<(usize, usize)>>>,
    /// The bytes each form's searches have read so far (to its match's end, or the text's).
    read: Vec<usize>,
    /// What a form may read before the rest of the text goes to the alternation.
    budget: usize,
    /// Where the next match may start.
    at: usize,
    /// The end of the last match: an empty match there is skipped, as the `regex` crate does.
    last_end: Option<usize>,
}

impl<'h> Iterator for Matches<'_, 'h> {
    type Item = Captures<'h>;

    fn next(&mut self) -> Option<Captures<'h>> {
        loop {
            if self.at > self.haystack.len() {
                return None;
            }
            if self.read.iter().any(|read| *read > self.budget) {
                return self.next_by_alternation();
            }
            let mut best: Option<(usize, usize, usize)> = None;
            for (index, form) in self.combined.forms.iter().enumerate() {
                let found = match self.next[index] {
                    Some(Some((start, end))) if start >= self.at => Some((start, end)),
                    Some(None) => None,
                    _ => {
                        let found = form.find_at(self.haystack, self.at).map(|m| (m.start(), m.end()));
                        self.read[index] += found.map_or(self.haystack.len(), |(_, end)| end) - self.at;
                        self.next[index] = Some(found);
                        found
                    }
                };
                if let Some((start, end)) = found
                    && best.is_none_or(|(best_start, _, _)| start < best_start)
                {
                    best = Some((start, end, index));
                }
            }
            let (start, end, index) = best?;
            if !self.take(start, end) {
                continue;
            }
            // The form matches at that start, and from there it takes the same path it did when
            // searched: the same end.
            let caps = self.combined.forms[index]
                .captures_at(self.haystack, start)
                .expect("the form matches where it was found");
            debug_assert_eq!(caps.get(0).map(|m| m.range()), Some(start..end));
            return Some(caps);
        }
    }
}

impl<'h> Matches<'_, 'h> {
    /// Takes the match `start..end` and moves past it, unless it is an empty match where the last
    /// one ended, which is skipped as the `regex` crate does: the search goes on one character on.
    fn take(&mut self, start: usize, end: usize) -> bool {
        if start == end && self.last_end == Some(end) {
            self.at = self.haystack[start..].chars().next().map_or(start + 1, |c| start + c.len_utf8());
            return false;
        }
        self.at = end;
        self.last_end = Some(end);
        true
    }

    /// The next match by the forms' alternation, which reads each byte once.
    fn next_by_alternation(&mut self) -> Option<Captures<'h>> {
        loop {
            if self.at > self.haystack.len() {
                return None;
            }
            let caps = self.combined.alternation().captures_at(self.haystack, self.at)?;
            let whole = caps.get(0).expect("a match has group 0");
            if self.take(whole.start(), whole.end()) {
                return Some(caps);
            }
        }
    }
}

/// Every form, including command lines that need context.
pub(super) static FULL: LazyLock<Combined> = LazyLock::new(|| Combined::new(Forms::All));
/// Every form except command lines (see [`Forms::ContextFree`]).
pub(super) static CONTEXT_FREE: LazyLock<Combined> = LazyLock::new(|| Combined::new(Forms::ContextFree));
/// The forms known by their shape (see [`Forms::Shapes`]).
pub(super) static SHAPES: LazyLock<Combined> = LazyLock::new(|| Combined::new(Forms::Shapes));

/// The length from which a text is first read by the forms' alternation to see whether anything
/// matches at all (see [`redact_with`]).
const NO_MATCH_CHECK_BYTES: usize = 4096;

/// One pass of `re` over `input`; borrows when no replacement changed anything
/// (a match can be kept as is, e.g. `PublicKeyToken=...`).
pub(super) fn redact_with<'a>(re: &Combined, input: &'a str) -> Cow<'a, str> {
    // Most output holds no secret: one pass of the alternation says so, and the forms' own
    // searches (a pass each) are left for text where something matches. A short text (a value
    // a match's replacement scans again, a line) is searched by the forms directly: the
    // alternation's fixed cost per search (its cache, its start) is more than their passes there.
    if input.len() >= NO_MATCH_CHECK_BYTES && !re.is_match(input) {
        return Cow::Borrowed(input);
    }
    let mut out: Option<String> = None;
    let mut last = 0;
    for caps in re.captures_iter(input) {
        let whole = caps.get(0).expect("a match has group 0");
        let out = out.get_or_insert_with(String::new);
        out.push_str(&input[last..whole.start()]);
        out.push_str(&replace(&caps));
        last = whole.end();
    }
    match out {
        Some(mut changed) => {
            changed.push_str(&input[last..]);
            if changed == input { Cow::Borrowed(input) } else { Cow::Owned(changed) }
        }
        None => Cow::Borrowed(input),
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::{CONTEXT_FREE, Combined, FULL, NO_MATCH_CHECK_BYTES, SHAPES, redact_with};
    use crate::redact::replace::FORMS;

    #[test]
    fn a_long_text_without_a_match_is_kept_after_one_pass_and_a_match_at_its_end_is_still_found() {
        let clean = "  Restored /src/Orders/Orders.csproj (in 412 ms).\n".repeat(200);
        assert!(clean.len() >= NO_MATCH_CHECK_BYTES);
        assert!(matches!(redact_with(&FULL, &clean), Cow::Borrowed(_)));
        let dirty = format!("{clean}export DB_PASSWORD=Zq8wLm3RtXy\n");
        assert_eq!(redact_with(&FULL, &dirty), format!("{clean}export DB_PASSWORD=[REDACTED]\n"));
    }

    /// Every match of `combined` over `text` (its range) when each form may read `budget` bytes,
    /// and the most bytes one form read (over the budget: the rest went to the alternation).
    fn matches(combined: &Combined, text: &str, budget: usize) -> (Vec<std::ops::Range<usize>>, usize) {
        let mut found = combined.captures_within(text, budget);
        let ranges = found.by_ref().map(|caps| caps.get(0).expect("a match has group 0").range()).collect();
        (ranges, found.read.iter().copied().max().unwrap_or(0))
    }

    #[test]
    fn the_alternation_finds_what_the_forms_searched_on_their_own_find() {
        let text = concat!(
            "info: Connecting with Server=db;User Id=sa;Password=Pa55w0rd!x;Encrypt=true\n",
            "export GITHUB_TOKEN=ghp_0123456789abcdefABCDEF0123456789abcd\n",
            "  \"ApiKey\": \"sk-proj-AbCdEf0123456789AbCdEf0123456789\",\n",
            "docker login -u me -p hunter2hunter2 registry.example.com 日本語\n",
            "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJl\n",
            "the password is Zq8!wLm3Rt and the build succeeded; 0 Warning(s)\n",
            "https://user:s3cretPass@example.com/feed/index.json?sig=AbCdEf0123456789%2F&x=1\n",
        );
        for combined in [&*FULL, &*CONTEXT_FREE, &*SHAPES] {
            let (alone, _) = matches(combined, text, usize::MAX);
            let (alternation, read) = matches(combined, text, 0);
            assert!(read > 0, "a budget of 0 sends the search after the first match to the alternation");
            assert_eq!(alternation, alone);
        }
        assert!(matches(&FULL, text, usize::MAX).0.len() >= 6, "the sample holds secrets of several forms");
    }

    #[test]
    fn a_form_overlapped_over_and_over_sends_the_rest_of_the_line_to_the_alternation() {
        // Each quoted value starts a `docker login` command line that runs to the line's end,
        // overlapped each time by the label's match that starts before it.
        let text = "password=\"docker login -p x\" ".repeat(300);
        let (unbounded, read_unbounded) = matches(&FULL, &text, usize::MAX);
        assert_eq!(unbounded.len(), 300, "{unbounded:?}");
        assert!(read_unbounded > 50 * text.len(), "searched on its own, the form reads the line again and again");
        let budget = 20_000;
        let (bounded, read) = matches(&FULL, &text, budget);
        assert!(
            read > budget && read <= budget + text.len(),
            "one search past the budget, then the alternation: {read}"
        );
        assert_eq!(bounded, unbounded);
    }

    #[test]
    fn each_form_holds_the_group_of_one_replacement_so_their_order_does_not_matter() {
        // `replace` takes the first entry of `FORMS` whose group a match captured: a form that
        // held two would depend on their order. Only the weak-label form, the fallback, holds none.
        for form in FULL.forms.iter().chain(&CONTEXT_FREE.forms).chain(&SHAPES.forms) {
            let groups: Vec<&str> = form.capture_names().flatten().collect();
            let entries: Vec<&str> =
                FORMS.iter().map(|(group, _)| *group).filter(|group| groups.contains(group)).collect();
            let expected = usize::from(groups.first() != Some(&"weak"));
            assert_eq!(entries.len(), expected, "{entries:?} in {groups:?}");
        }
    }
}
