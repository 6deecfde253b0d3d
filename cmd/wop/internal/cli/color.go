package cli

// ColorEnabled decides whether output to a stream is coloured, once, from
// the environment and whether the stream is a terminal:
//   - NO_COLOR set to anything but "" turns colour off (no-color.org: an
//     empty value does not count), whatever else is set;
//   - CLICOLOR_FORCE set to anything but "" or "0" turns it on, even
//     through a pipe (bixense.com/clicolors);
//   - otherwise only a terminal whose TERM is not "dumb" gets colour.
func ColorEnabled(getenv func(string) string, terminal bool) bool {
	switch {
	case getenv("NO_COLOR") != "":
		return false
	case getenv("CLICOLOR_FORCE") != "" && getenv("CLICOLOR_FORCE") != "0":
		return true
	}
	return terminal && getenv("TERM") != "dumb"
}
