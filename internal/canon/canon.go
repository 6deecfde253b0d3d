// Package canon writes the canonical JSON that OpenWOP signs: JavaScript's
// JSON.stringify with object keys sorted by UTF-16 code units, no whitespace,
// only the escapes JSON.stringify makes, and numbers as ECMAScript
// Number::toString (FORMAT.md §3). encoding/json differs on several of these
// (it escapes <, >, & and U+2028/9), so this writes the bytes itself.
package canon

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/wop-cli/wop/internal/jsonpos"
)

// ErrDuplicateKey means the input names a member twice in one object; which
// copy a reader keeps is undefined, so nothing canonical can be made of it.
var ErrDuplicateKey = errors.New("duplicate member name")

// Parse parses src as strictly as signing needs: duplicate member names,
// lone surrogates, and integers beyond ±(2^53-1) are refused.
func Parse(src []byte) (*jsonpos.Doc, error) {
	doc, err := jsonpos.ParseWith(src, jsonpos.Options{SafeIntegers: true})
	if err != nil {
		return nil, err
	}
	if len(doc.Duplicates) > 0 {
		d := doc.Duplicates[0]
		return nil, fmt.Errorf("%w %q in %s (line %d)", ErrDuplicateKey, d.Name, pointerOrRoot(d.Pointer), doc.Position(d.At).Line)
	}
	return doc, nil
}

func pointerOrRoot(p string) string {
	if p == "" {
		return "the top-level object"
	}
	return p
}

// Marshal returns the canonical form of v.
func Marshal(v *jsonpos.Value) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(max(v.End-v.Start, 0)) // a parsed value's source length: about its size
	if err := write(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func write(b *bytes.Buffer, v *jsonpos.Value) error {
	switch v.Kind {
	case jsonpos.Null:
		b.WriteString("null")
	case jsonpos.Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case jsonpos.Number:
		s, err := Number(v.Num)
		if err != nil {
			return err
		}
		b.WriteString(s)
	case jsonpos.String:
		writeString(b, v.Str)
	case jsonpos.Array:
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := write(b, it); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case jsonpos.Object:
		members := slices.Clone(v.Members)
		slices.SortFunc(members, func(x, y jsonpos.Member) int { return CompareUTF16(x.Name, y.Name) })
		b.WriteByte('{')
		for i, m := range members {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, m.Name)
			b.WriteByte(':')
			if err := write(b, m.Value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	}
	return nil
}

// CompareUTF16 orders strings by their UTF-16 code units, as JavaScript's
// default sort does. It differs from byte order only when a character above
// U+FFFF meets one in U+E000..U+FFFF.
func CompareUTF16(a, b string) int {
	if belowE000(a) && belowE000(b) {
		return strings.Compare(a, b) // the common case, without allocating
	}
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// belowE000 says whether s is valid UTF-8 holding no character from U+E000
// up (no byte from 0xEE, the lead byte of U+E000, up): for such strings
// byte order is UTF-16 order.
func belowE000(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0xee {
			return false
		}
	}
	return utf8.ValidString(s)
}

// writeString escapes exactly what JSON.stringify escapes.
func writeString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
}

// Number formats a JSON number literal as ECMAScript Number::toString does:
// the shortest digits that round-trip, decimal notation for exponents in
// [-7, 21), "e+"/"e-" notation otherwise, and -0 as "0".
func Number(lit string) (string, error) {
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return "", fmt.Errorf("number %s is not a finite IEEE 754 double", jsonpos.NumberForMessage(lit))
	}
	if f == 0 {
		return "0", nil
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	// 'e' with precision -1 gives the shortest round-trip digits: d.ddde±x.
	mant, exp, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	digits := strings.Replace(mant, ".", "", 1)
	e, _ := strconv.Atoi(exp)
	k, n := len(digits), e+1
	var s string
	switch {
	case k <= n && n <= 21:
		s = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		s = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		s = "0." + strings.Repeat("0", -n) + digits
	default:
		expSign := "+"
		if n-1 < 0 {
			expSign = "-"
		}
		frac := ""
		if k > 1 {
			frac = "." + digits[1:]
		}
		s = digits[:1] + frac + "e" + expSign + strconv.Itoa(abs(n-1))
	}
	return sign + s, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Indent returns v as JSON.stringify(v, null, 2) writes it, plus a newline:
// members in source order, two-space indentation. Registries serve signed
// manifests in this form.
func Indent(v *jsonpos.Value) ([]byte, error) {
	var b bytes.Buffer
	b.Grow(max(v.End-v.Start, 0)) // a parsed value's source length: about its size
	if err := indent(&b, v, "\n"); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func indent(b *bytes.Buffer, v *jsonpos.Value, nl string) error {
	inner := nl + "  "
	switch {
	case v.Kind == jsonpos.Array && len(v.Items) > 0:
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(inner)
			if err := indent(b, it, inner); err != nil {
				return err
			}
		}
		b.WriteString(nl + "]")
	case v.Kind == jsonpos.Object && len(v.Members) > 0:
		b.WriteByte('{')
		for i, m := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(inner)
			writeString(b, m.Name)
			b.WriteString(": ")
			if err := indent(b, m.Value, inner); err != nil {
				return err
			}
		}
		b.WriteString(nl + "}")
	default:
		return write(b, v)
	}
	return nil
}
