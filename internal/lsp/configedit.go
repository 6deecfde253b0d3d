package lsp

import (
	"bytes"
	"errors"

	"go.yaml.in/yaml/v3"
)

// addIgnore adds file to rule's ignore list in a .wop.yaml's text (empty
// for a new file), keeping its other settings and comments. A rule set by
// its short form (`rule: off`) becomes the long form with that severity.
func addIgnore(src []byte, rule, file string) ([]byte, error) {
	var doc yaml.Node
	if len(bytes.TrimSpace(src)) > 0 {
		if err := yaml.Unmarshal(src, &doc); err != nil {
			return nil, err
		}
	}
	if doc.Kind == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, errors.New("the file is not a mapping; fix it first")
	}
	rules := member(root, "rules", yaml.MappingNode)
	entry := member(rules, rule, yaml.MappingNode)
	if entry.Kind == yaml.ScalarNode { // the short form: a severity
		sev := entry.Value
		*entry = yaml.Node{Kind: yaml.MappingNode}
		member(entry, "severity", yaml.ScalarNode).Value = sev
	}
	if entry.Kind != yaml.MappingNode || rules.Kind != yaml.MappingNode {
		return nil, errors.New("rules is not a mapping of rule ids; fix it first")
	}
	ignore := member(entry, "ignore", yaml.SequenceNode)
	if ignore.Kind != yaml.SequenceNode {
		return nil, errors.New("ignore is not a list; fix it first")
	}
	for _, n := range ignore.Content {
		if n.Value == file {
			return src, nil
		}
	}
	ignore.Content = append(ignore.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: file})
	var out bytes.Buffer
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// member is the value of key in mapping m, added as an empty node of kind
// when missing or null.
func member(m *yaml.Node, key string, kind yaml.Kind) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return m
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			v := m.Content[i+1]
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" && kind != yaml.ScalarNode {
				*v = yaml.Node{Kind: kind}
			}
			return v
		}
	}
	v := &yaml.Node{Kind: kind}
	if kind == yaml.ScalarNode {
		v.Tag = "!!str"
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	return v
}
