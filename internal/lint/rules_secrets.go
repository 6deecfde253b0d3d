package lint

import "github.com/wop-cli/wop/internal/pack"

// checkSecretFiles is private-key-in-pack: a secret the archive would hold
// (checkPrivateKey), and one anywhere else in a pack folder, which the
// archive leaves out but build and publish refuse all the same
// (build.Source.CheckSecrets): a key or .env file in a pack folder ends
// up in a commit, a copy or a later archive.
func checkSecretFiles(p *Pass) {
	checkPrivateKey(p)
	if p.Pack.Archive != nil {
		return // an archive holds nothing it leaves out
	}
	in := map[string]bool{}
	for _, f := range bundled(p) {
		in[f.Name] = true
	}
	for _, f := range p.Pack.Files {
		if in[f.Name] {
			continue
		}
		kind := pack.SecretKind(f.Name, nil)
		if kind == "" && f.Mode.IsRegular() {
			_ = p.lend(f.Name, func(data []byte) { kind = pack.SecretKind(f.Name, data) }) // too large to read: judged by name
		}
		if kind != "" {
			p.ReportFilef(f.Name, "%s in the pack folder: the archive leaves it out, but build and publish refuse it (--no-lint or not); move it out of the pack folder", kind)
		}
	}
}
