package breaking

import "testing"

func TestMadeAndNext(t *testing.T) {
	made := []struct {
		old, new string
		want     Bump
	}{
		{"1.2.3", "2.0.0", Major}, {"1.2.3", "1.3.0", Minor}, {"1.2.3", "1.2.4", Patch},
		{"0.2.3", "0.3.0", Major}, {"0.2.3", "0.2.4", Minor}, {"0.0.3", "0.0.4", Major},
		{"1.0.0-rc.1", "1.0.0", Patch}, {"1.2.3", "1.2.3", None}, {"1.2.3", "1.2.2", None}, {"x", "1.0.0", None},
	}
	for _, tt := range made {
		if got := Made(tt.old, tt.new); got != tt.want {
			t.Errorf("Made(%s, %s) = %s, want %s", tt.old, tt.new, got, tt.want)
		}
	}
	next := []struct {
		v    string
		b    Bump
		want string
	}{
		{"1.2.3", Major, "2.0.0"}, {"1.2.3", Minor, "1.3.0"}, {"1.2.3", Patch, "1.2.4"}, {"1.2.3", None, "1.2.4"},
		{"0.2.3", Major, "0.3.0"}, {"0.2.3", Minor, "0.2.4"}, {"0.0.3", Major, "0.0.4"}, {"1.0.0-rc.1", Patch, "1.0.0"},
	}
	for _, tt := range next {
		got, err := Next(tt.v, tt.b)
		if err != nil || got != tt.want {
			t.Errorf("Next(%s, %s) = %s, %v; want %s", tt.v, tt.b, got, err, tt.want)
		}
		if Made(tt.v, got) < tt.b {
			t.Errorf("Next(%s, %s) = %s makes only %s", tt.v, tt.b, got, Made(tt.v, got))
		}
	}
	if _, err := Next("v1", Patch); err == nil {
		t.Error("Next of a non-SemVer version: no error")
	}
}
