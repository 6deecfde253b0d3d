package lint

import "github.com/wop-cli/wop/internal/diag"

// All returns every rule, in the order of LINT-RULES.md. The list is built
// per call (no package state); callers that need it often keep the slice.
func All() []*Rule {
	return []*Rule{
		// Files and JSON
		{ID: "json-invalid", Severity: diag.Error, Raw: true, Check: checkJSONInvalid, Summary: "pack.json and referenced JSON files must be strict RFC 8259 JSON"},
		{ID: "json-duplicate-key", Severity: diag.Error, Raw: true, Check: checkDuplicateKeys, Summary: "a member name appears twice in one JSON object"},
		{ID: "json-dangerous-key", Severity: diag.Error, Raw: true, Check: checkDangerousKeys, Summary: "__proto__, constructor or prototype used as a JSON member name"},
		{ID: "encoding-not-utf8", Severity: diag.Error, Raw: true, Check: checkEncoding, Summary: "pack.json, schemas and prompts must be UTF-8 without BOM or NUL"},
		{ID: "manifest-too-large", Severity: diag.Error, Raw: true, Check: checkManifestTooLarge, Summary: "pack.json is over the registry's 256 KB ceiling"},
		{ID: "file-too-large", Severity: diag.Error, Raw: true, Check: checkFileTooLarge, Summary: "a bundled file is over the 5 MB per-entry ceiling"},
		{ID: "pack-too-large", Severity: diag.Error, Raw: true, Check: checkPackTooLarge, Summary: "the bundled files add up to over 50 MB"},
		{ID: "symlink-in-pack", Severity: diag.Error, Raw: true, Check: checkSymlinks, Summary: "a link, device or FIFO would be bundled"},
		{ID: "path-too-long", Severity: diag.Error, Raw: true, Check: checkPathTooLong, Summary: "an archive path is over 100 bytes"},
		{ID: "path-unsafe", Severity: diag.Error, Raw: true, Check: checkPathUnsafe, Summary: "a bundled path has non-ASCII, control characters, \\ or :, or collides by case"},
		{ID: "private-key-in-pack", Severity: diag.Error, Raw: true, Check: checkPrivateKey, Summary: "a private key or .env secret file would be bundled"},
		{ID: "stray-signature", Severity: diag.Warning, Raw: true, Check: checkStraySignature, Summary: "a signature file in the source goes stale; the build writes it"},
		// Manifest shape
		{ID: "manifest-schema", Severity: diag.Error, Check: checkManifestSchema, Summary: "pack.json must validate against its kind's JSON Schema"},
		{ID: "kind-unknown", Severity: diag.Error, Check: checkKindUnknown, Summary: "kind is not an OpenWOP pack kind"},
		{ID: "kind-schema-unavailable", Severity: diag.Error, Check: checkKindSchemaUnavailable, Summary: "no schema is published for this kind, so it cannot be validated"},
		{ID: "pack-kind-mixed", Severity: diag.Error, Check: checkPackKindMixed, Summary: "one manifest carries content of two kinds"},
		{ID: "declarative-kind-has-runtime", Severity: diag.Error, Check: checkDeclarativeRuntime, Summary: "a declarative pack kind declares a runtime"},
		// Refs
		{ID: "ref-empty", Severity: diag.Error, Check: refSyntaxRule("ref-empty"), Summary: "a file ref is empty"},
		{ID: "ref-absolute", Severity: diag.Error, Check: refSyntaxRule("ref-absolute"), Summary: "a file ref is an absolute path"},
		{ID: "ref-remote", Severity: diag.Error, Check: refSyntaxRule("ref-remote"), Summary: "a file ref is a URL instead of a path in the pack"},
		{ID: "ref-escapes-pack", Severity: diag.Error, Check: refSyntaxRule("ref-escapes-pack"), Summary: "a file ref climbs out of the pack with .."},
		{ID: "ref-not-canonical", Severity: diag.Error, Check: refSyntaxRule("ref-not-canonical"), Summary: "a file ref is not a canonical path (./x, a//b, #frag, \\)"},
		{ID: "ref-missing", Severity: diag.Error, Check: checkRefResolution(targetMissing), Summary: "a file ref names a file that is not in the pack"},
		{ID: "ref-not-file", Severity: diag.Error, Check: checkRefResolution(targetNotFile), Summary: "a file ref names a directory or a link"},
		{ID: "ref-case-mismatch", Severity: diag.Error, Check: checkRefResolution(targetCase), Summary: "a file ref differs in case from the file"},
		{ID: "ref-not-bundled", Severity: diag.Error, Check: checkRefNotBundled, Summary: "a file ref names a file the registry's builder would not bundle"},
		{ID: "prompt-empty", Severity: diag.Error, Check: checkPromptEmpty, Summary: "a referenced prompt file is empty"},
		{ID: "prompt-too-large", Severity: diag.Warning, Check: checkPromptTooLarge, Summary: "a referenced prompt is over 64 KiB"},
		{ID: "schema-invalid", Severity: diag.Error, Check: checkSchemaInvalid, Summary: "a pack schema does not compile as JSON Schema 2020-12"},
		{ID: "schema-draft-mismatch", Severity: diag.Error, Check: checkSchemaDraft, Summary: "a pack schema declares a $schema other than 2020-12"},
		{ID: "schema-id-mismatch", Severity: diag.Error, Check: checkSchemaIDMismatch, Summary: "a pack schema's $id is not <base>/<name>/<version>/<file>"},
		{ID: "schema-ref-version-drift", Severity: diag.Error, Check: checkSchemaRefDrift, Summary: "an absolute $ref points into this pack at another version"},
		{ID: "schema-id-missing", Severity: diag.Warning, Check: checkSchemaIDMissing, Summary: "a pack schema has no $id"},
		{ID: "schema-unknown-keyword", Severity: diag.Warning, Check: checkSchemaUnknownKeyword, Summary: "a schema member looks like a misspelt keyword and is ignored"},
		{ID: "eval-suite-invalid", Severity: diag.Error, Check: checkEvalSuite, Summary: "an evalSuiteRef target is not an eval suite"},
		// runtime
		{ID: "runtime-entry-missing", Severity: diag.Error, Check: checkRuntimeEntryMissing, Summary: "runtime.entry is not in the pack"},
		{ID: "runtime-format-mismatch", Severity: diag.Error, Check: checkRuntimeFormat, Summary: "runtime.format does not fit runtime.language"},
		{ID: "runtime-remote-entry", Severity: diag.Warning, Check: checkRuntimeRemoteEntry, Summary: "a remote runtime names a file as its entry"},
	}
}
