package jsonpos

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// DecodeError restates an encoding/json error from decoding src in JSON
// terms: where (line:column; for a wrong type, just after the value) and, for a value of the wrong type, which
// member and what JSON it wants; never a Go type name. Other errors are
// returned as they are.
func DecodeError(src []byte, err error) error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		at := PositionOf(src, int(te.Offset))
		what := "the document"
		if te.Field != "" {
			what = fmt.Sprintf("%q", te.Field)
		}
		return fmt.Errorf("line %d:%d: %s is %s, want %s", at.Line, at.Column, what, article(te.Value), jsonKind(te.Type))
	case errors.As(err, &se):
		off := int(se.Offset) - 1 // Offset counts the bad byte
		if mistake, msg, ok := explainSyntax(src, off, se.Error()); ok {
			at := PositionOf(src, mistake)
			return fmt.Errorf("line %d:%d: %s", at.Line, at.Column, msg)
		}
		at := PositionOf(src, off)
		return fmt.Errorf("line %d:%d: %s", at.Line, at.Column, se.Error())
	}
	return err
}

// jsonKind names the JSON a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another type"
}

// article turns encoding/json's name of the JSON found ("string",
// "number 1.5", "array") into a phrase.
func article(v string) string {
	switch {
	case v == "array", v == "object":
		return "an " + v
	case v == "bool":
		return "true or false"
	case v == "":
		return "a value"
	}
	return "a " + v
}
