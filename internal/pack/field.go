package pack

import (
	"fmt"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// ManifestString is a top-level string member of the pack's manifest ("" if
// absent or not a string).
func (pk *Pack) ManifestString(key string) (string, error) {
	src, err := pk.ReadFile(ManifestName)
	if err != nil {
		return "", err
	}
	doc, err := jsonpos.Parse(src)
	if err != nil {
		return "", fmt.Errorf("%s: %w", ManifestName, err)
	}
	return doc.Root.Get(key).String(), nil
}
