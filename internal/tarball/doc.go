// Package tarball writes pack archives byte for byte as the registry's
// reference builder does (FORMAT.md §2) and reads archives strictly, within
// size limits, never extracting to disk.
package tarball
