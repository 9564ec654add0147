//go:build gc && !purego && !noasm

package pad

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestLastLevelCache: on AMD, the size CPUID's cache topology gives is the
// largest cache Linux lists in sysfs (which reads the same leaf), or with
// neither (a hypervisor that hides the leaf) leaf 0x80000006's L3 capped at
// a core complex's; runs stream from two thirds of it (half of a guessed
// one) and split by default from all of it; elsewhere CPUID is not read
// for it.
func TestLastLevelCache(t *testing.T) {
	if !isAMD() {
		if streamMinTraffic != 0 || parallelMinTraffic != 0 {
			t.Errorf("streamMinTraffic %d, parallelMinTraffic %d on a CPU not AMD's, want 0", streamMinTraffic, parallelMinTraffic)
		}
		t.Skip("not an AMD CPU: the streaming threshold is the default")
	}
	llc, guessed := lastLevelCache()
	wantStream := llc * 2 / 3
	if guessed {
		wantStream = llc / 2
	}
	if streamMinBytes != 3<<19 || streamMinTraffic != wantStream {
		t.Errorf("streamMinBytes %d, streamMinTraffic %d; want 1.5 MiB and %d (last-level cache %d, guessed %v)", streamMinBytes, streamMinTraffic, wantStream, llc, guessed)
	}
	if parallelMinTraffic != llc {
		t.Errorf("parallelMinTraffic %d, want the last-level cache (%d)", parallelMinTraffic, llc)
	}
	want := 0
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "size"))
		if err != nil {
			continue
		}
		s := strings.TrimSpace(string(b))
		mul := 1
		if k, ok := strings.CutSuffix(s, "K"); ok {
			s, mul = k, 1<<10
		} else if m, ok := strings.CutSuffix(s, "M"); ok {
			s, mul = m, 1<<20
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("%s: size %q", d, b)
		}
		want = max(want, n*mul)
	}
	if want == 0 {
		if a, _, _, _ := cpuid(0x8000001D, 0); a&31 == 0 {
			_, _, _, d := cpuid(0x80000006, 0)
			if fallback := l3FromLegacyLeaf(d); llc != fallback || !guessed {
				t.Errorf("last-level cache %d bytes (guessed %v) with an empty topology leaf, want leaf 0x80000006's %d, guessed", llc, guessed, fallback)
			}
		}
		if llc != 0 && (llc < 256<<10 || llc%64 != 0) {
			t.Errorf("last-level cache %d bytes: not a cache size", llc)
		}
		t.Skip("no cache sizes in sysfs to compare with")
	}
	if llc != want {
		t.Errorf("last-level cache %d bytes, sysfs's largest %d", llc, want)
	}
}

// TestL3FromLegacyLeaf: leaf 0x80000006's L3 field, in 512 KiB units,
// capped at one core complex's 32 MiB.
func TestL3FromLegacyLeaf(t *testing.T) {
	for _, c := range []struct {
		edx  uint32
		want int
	}{
		{0x0fe09140, 32 << 20}, // 1016 units (508 MiB): a 16-CCD EPYC Zen 5's package
		{0x00809140, 16 << 20}, // 32 units
		{0x01009140, 32 << 20}, // 64 units: exactly a complex's
		{0x0003ffff, 0},        // no L3: only the lower fields set
		{0, 0},
	} {
		if got := l3FromLegacyLeaf(c.edx); got != c.want {
			t.Errorf("l3FromLegacyLeaf(%#x) = %d, want %d", c.edx, got, c.want)
		}
	}
}
