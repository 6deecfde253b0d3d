package cli

import "testing"

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		terminal bool
		want     bool
	}{
		{"terminal", map[string]string{"TERM": "xterm-256color"}, true, true},
		{"pipe", nil, false, false},
		{"TERM=dumb", map[string]string{"TERM": "dumb"}, true, false},
		{"NO_COLOR=1", map[string]string{"NO_COLOR": "1"}, true, false},
		{"empty NO_COLOR does not count", map[string]string{"NO_COLOR": ""}, true, true},
		{"CLICOLOR_FORCE through a pipe", map[string]string{"CLICOLOR_FORCE": "1"}, false, true},
		{"CLICOLOR_FORCE on a dumb terminal", map[string]string{"CLICOLOR_FORCE": "1", "TERM": "dumb"}, true, true},
		{"CLICOLOR_FORCE=0 does not force", map[string]string{"CLICOLOR_FORCE": "0"}, false, false},
		{"NO_COLOR beats CLICOLOR_FORCE", map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ColorEnabled(func(k string) string { return tt.env[k] }, tt.terminal); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
