package config

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/wop-cli/wop/internal/suggest"
	"go.yaml.in/yaml/v3"
)

// checkShape checks a YAML node against the Go type it will decode into,
// reporting every mismatch in YAML terms: an unknown key (with the nearest
// known one), a list where a mapping belongs, a mapping where a string
// belongs. The Go types never reach the message.
func checkShape(n *yaml.Node, t reflect.Type, path string, probs *[]Problem) {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	add := func(format string, args ...any) {
		*probs = append(*probs, Problem{Line: n.Line, Column: n.Column, Path: path, Message: fmt.Sprintf(format, args...)})
	}
	if t == reflect.TypeFor[RuleConfig]() {
		switch n.Kind {
		case yaml.ScalarNode:
			if n.Tag == "!!null" {
				add("expected a severity (off, info, warning, error), got nothing")
			}
		case yaml.MappingNode:
			checkStruct(n, t, path, probs)
		default:
			add("expected a severity (off, info, warning, error) or a mapping with severity and ignore, got %s", what(n))
		}
		return
	}
	if t == reflect.TypeFor[Sources]() {
		switch {
		case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		case n.Kind == yaml.SequenceNode:
			for i, item := range n.Content {
				checkShape(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i), probs)
			}
		default:
			add("expected a catalog source or a list of them, got %s", what(n))
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			add("expected a mapping, got %s", what(n))
			return
		}
		checkStruct(n, t, path, probs)
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			add("expected a mapping, got %s", what(n))
			return
		}
		checkDuplicates(n, path, probs)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				*probs = append(*probs, Problem{Line: k.Line, Column: k.Column, Path: path, Message: "keys must be plain strings, got " + what(k)})
				continue
			}
			checkShape(n.Content[i+1], t.Elem(), join(path, k.Value), probs)
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			add("expected a list, got %s", what(n))
			return
		}
		for i, item := range n.Content {
			checkShape(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i), probs)
		}
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			add("expected a string, got %s", what(n))
		}
	}
}

// checkStruct checks a mapping against a struct's yaml keys.
func checkStruct(n *yaml.Node, t reflect.Type, path string, probs *[]Problem) {
	fields := map[string]reflect.Type{}
	var known []string
	for f := range t.Fields() {
		key, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if key == "" || key == "-" {
			continue
		}
		fields[key] = f.Type
		known = append(known, key)
	}
	slices.Sort(known)
	checkDuplicates(n, path, probs)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		ft, ok := fields[k.Value]
		if !ok {
			msg := fmt.Sprintf("unknown key %q", k.Value)
			near, sure := suggest.Guess(k.Value, known, 3)
			if near != "" {
				msg += fmt.Sprintf("; did you mean %q?", near)
			}
			msg += " (known here: " + strings.Join(known, ", ") + ")"
			*probs = append(*probs, Problem{Line: k.Line, Column: k.Column, Path: path, Message: msg, node: k, meant: near, Fixable: sure})
			continue
		}
		checkShape(n.Content[i+1], ft, join(path, k.Value), probs)
	}
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// what names a node's kind for messages.
func what(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.Tag {
	case "!!null":
		return "nothing"
	case "!!bool":
		return "true or false"
	case "!!int", "!!float":
		return "a number"
	}
	return fmt.Sprintf("the string %q", n.Value)
}

// checkDuplicates reports a key written twice in one mapping: YAML readers
// disagree on which copy wins.
func checkDuplicates(n *yaml.Node, path string, probs *[]Problem) {
	first := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if k.Kind != yaml.ScalarNode {
			continue
		}
		if prev, ok := first[k.Value]; ok {
			*probs = append(*probs, Problem{Line: k.Line, Column: k.Column, Path: path,
				Message: fmt.Sprintf("key %q appears twice (first on line %d); keep one", k.Value, prev.Line)})
			continue
		}
		first[k.Value] = k
	}
}
