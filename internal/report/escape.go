package report

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// EscapeControl makes untrusted text safe to print on a terminal: control
// characters (C0, DEL, C1), bidirectional overrides and invalid UTF-8 are
// written as \x1b-style escapes, so an archive entry name cannot change
// colours, move the cursor or write to the clipboard (OSC 52). Newlines
// are kept only when keepNewlines (wop's own multi-line messages).
func EscapeControl(s string, keepNewlines bool) string {
	if !needsEscape(s, keepNewlines) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && keepNewlines, r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0 || isBidi(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string, keepNewlines bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r < 0x20 && r != '\t' && !(r == '\n' && keepNewlines) || r == 0x7f || r >= 0x80 && r < 0xa0 || isBidi(r) {
			return true
		}
		i += size
	}
	return false
}

// isBidi reports the explicit directional formatting characters that can
// make displayed text differ from its bytes ("Trojan Source").
func isBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}
