//go:build gc && !purego && !noasm

package pad

import (
	"os"
	"strings"
	"testing"
)

// TestRepMinBytes: REP MOVSB copies are on (from 4 KiB) on AMD CPUs with
// fast short REP MOVSB, off elsewhere; hasFSRM agrees with the flags Linux
// lists.
func TestRepMinBytes(t *testing.T) {
	want := 0
	if isAMD() && hasFSRM() {
		want = 4 << 10
	}
	if repMinBytes != want {
		t.Errorf("repMinBytes %d, want %d (AMD %v, FSRM %v)", repMinBytes, want, isAMD(), hasFSRM())
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip("no /proc/cpuinfo to compare FSRM with")
	}
	flags := ""
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "flags" {
			flags = " " + strings.TrimSpace(v) + " "
			break
		}
	}
	if flags == "" {
		t.Skip("no flags line in /proc/cpuinfo")
	}
	if got := strings.Contains(flags, " fsrm "); got != hasFSRM() {
		t.Errorf("hasFSRM() = %v, /proc/cpuinfo lists fsrm: %v", hasFSRM(), got)
	}
}

// TestRepCopies: copyBytes takes REP MOVSB from repMinBytes on, for dst
// and src in the same 64-byte phase, where the level has copyRep.
func TestRepCopies(t *testing.T) {
	ks := &asmKernels{copyRep: copyRep}
	setForTest(t, &repMinBytes, 4096)
	buf := benchBytes(3 * 8192)
	src := buf[:8192]
	for _, c := range []struct {
		n, dstOff int
		want      bool
	}{
		{4095, 0, false},
		{4096, 0, true},
		{8192, 8192, true},
		{4096, 8192 + 64, true},
		{4096, 8192 + 1, false},
		{8000, 8192 + 32, false},
	} {
		dst := buf[c.dstOff+8192:]
		if got := repCopies(ks, dst[:c.n], src[:c.n]); got != c.want {
			t.Errorf("repCopies(n %d, dst phase %d) = %v, want %v", c.n, addrPhase(dst), got, c.want)
		}
	}
	// Overlapping ranges in phase (a forward copy of a period): memmove.
	if repCopies(ks, buf[64:][:8192], buf[:8192]) || repCopies(ks, buf[:8192], buf[64:][:8192]) {
		t.Error("repCopies with dst and src overlapping")
	}
	if !repCopies(ks, buf[8192:][:8192], buf[:8192]) {
		t.Error("repCopies of adjacent ranges")
	}
	if repCopies(&asmKernels{}, buf[8192:][:4096], src[:4096]) {
		t.Error("repCopies without copyRep")
	}
	repMinBytes = 0
	if repCopies(ks, buf[8192:][:4096], src[:4096]) {
		t.Error("repCopies with repMinBytes 0")
	}
}
