//go:build gc && !purego && !noasm

package pad

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestRepMinBytes: REP MOVSB copies are on on AMD CPUs with fast short
// REP MOVSB (from 4 KiB from family 26 on, from 1 MiB before), off
// elsewhere; hasFSRM and cpuFamily agree with what Linux lists.
func TestRepMinBytes(t *testing.T) {
	want := 0
	if isAMD() && hasFSRM() {
		want = amdRepMinBytes(cpuFamily())
	}
	if repMinBytes != want {
		t.Errorf("repMinBytes %d, want %d (AMD %v, FSRM %v, family %d)", repMinBytes, want, isAMD(), hasFSRM(), cpuFamily())
	}
	for family, want := range map[uint32]int{23: 1 << 20, 25: 1 << 20, 26: 4 << 10, 27: 4 << 10} {
		if got := amdRepMinBytes(family); got != want {
			t.Errorf("amdRepMinBytes(%d) = %d, want %d", family, got, want)
		}
	}
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		t.Skip("no /proc/cpuinfo to compare FSRM and the family with")
	}
	fields := map[string]string{}
	for line := range strings.Lines(string(b)) {
		if k, v, ok := strings.Cut(line, ":"); ok {
			k = strings.TrimSpace(k)
			if _, seen := fields[k]; !seen {
				fields[k] = strings.TrimSpace(v)
			}
		}
	}
	if family, ok := fields["cpu family"]; !ok {
		t.Error("no cpu family line in /proc/cpuinfo")
	} else if got := fmt.Sprint(cpuFamily()); got != family {
		t.Errorf("cpuFamily() = %s, /proc/cpuinfo lists %s", got, family)
	}
	flags, ok := fields["flags"]
	if !ok {
		t.Skip("no flags line in /proc/cpuinfo")
	}
	if got := strings.Contains(" "+flags+" ", " fsrm "); got != hasFSRM() {
		t.Errorf("hasFSRM() = %v, /proc/cpuinfo lists fsrm: %v", hasFSRM(), got)
	}
}

// TestRepCopies: copyBytes takes REP MOVSB from repMinBytes on, unless
// dst lies 1 to 63 bytes after src modulo 4 KiB, where the level has
// copyRep.
func TestRepCopies(t *testing.T) {
	ks := &asmKernels{copyRep: copyRep}
	setForTest(t, &repMinBytes, 4096)
	buf := benchBytes(4 * 8192)
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
		{4096, 8192 + 63, false},
		{4096, 8192 + 72, true},         // out of phase, 72 bytes on
		{4096, 8192 + 4096 - 8, true},   // 8 bytes before src
		{4096, 8192 + 4096 + 40, false}, // 40 bytes on, a page further
	} {
		dst := buf[c.dstOff+8192:]
		if got := repCopies(ks, dst[:c.n], src[:c.n]); got != c.want {
			t.Errorf("repCopies(n %d, dst %d bytes after src) = %v, want %v", c.n, c.dstOff+8192, got, c.want)
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

func TestRepSlowDistance(t *testing.T) {
	const s = uintptr(0x7f0000001230)
	for _, c := range []struct {
		dist int // d - s
		want bool
	}{
		{0, false}, {1, true}, {8, true}, {63, true}, {64, false}, {4095, false},
		{4096, false}, {4097, true}, {4096 + 63, true}, {1 << 20, false}, {1<<20 + 32, true},
		{-1, false}, {-(4096 - 8), true}, {-64, false},
	} {
		if got := repSlowDistance(uintptr(int(s)+c.dist), s); got != c.want {
			t.Errorf("repSlowDistance(s%+d, s) = %v, want %v", c.dist, got, c.want)
		}
	}
}

// TestRowsShifted: rowsShiftedBytes against rowsConstGo and fills, for
// rows as wide as their input stride, in planes with pad rows above and
// below, every kernel size, canaries around dst; src is never written.
// Where the copy's dst lies 1 to 63 bytes after its src (modulo 4 KiB) it
// declines and writes nothing.
func TestRowsShifted(t *testing.T) {
	if kernelsInUse() == nil || kernelsInUse().copyRep == nil {
		t.Skip("no REP MOVSB copy at this level")
	}
	setForTest(t, &repMinBytes, 1)
	r := rand.New(rand.NewPCG(7, 20))
	made, declined := 0, 0
	for i := 0; i < 3000; i++ {
		size := kernelSizes[i%5]
		elem := randomBytes(r, size)
		if i%7 == 0 {
			elem = make([]byte, size)
		}
		pat := patternOf(elem)
		left, right, mid := size*r.IntN(20), size*r.IntN(20), size*r.IntN(300/size+1)
		if left+right == 0 {
			right = size
		}
		width := left + mid + right
		rows := 1 + r.IntN(9)
		top, bottom := width*r.IntN(3), width*r.IntN(3)
		plane := top + rows*width + bottom
		pl := planes{n: 1 + r.IntN(3)}
		pl.dst, pl.src = plane+r.IntN(3)*width+r.IntN(64), rows*width+r.IntN(200)
		dstLen, srcLen := (pl.n-1)*pl.dst+plane, (pl.n-1)*pl.src+rows*width
		src := randomBytes(r, srcLen)
		keep := bytes.Clone(src)
		dst, check := guarded(dstLen, r.IntN(64), byte(i))
		before := bytes.Clone(dst)
		what := func() string {
			return fmt.Sprintf("size %d rows %d left %d mid %d right %d top %d bottom %d planes %+v", size, rows, left, mid, right, top, bottom, pl)
		}
		ok := rowsShiftedBytes(dst, src, pl, rows, width, left, mid, top, bottom, pat)
		check(t, what())
		if !bytes.Equal(src, keep) {
			t.Fatalf("%s: src written", what())
		}
		d0, s0 := uintptr(unsafe.Pointer(&dst[top+left])), uintptr(unsafe.Pointer(&src[0]))
		if wantOK := rows >= 2 && !repSlowDistance(d0, s0); ok != wantOK {
			t.Fatalf("%s: rowsShiftedBytes reported %v, want %v", what(), ok, wantOK)
		}
		if !ok {
			declined++
			if !bytes.Equal(dst, before) {
				t.Fatalf("%s: declined but wrote dst", what())
			}
			continue
		}
		made++
		want := bytes.Clone(before)
		for p := range pl.n {
			w, s := want[p*pl.dst:], src[p*pl.src:]
			fillGo(w[:top], pat)
			rowsConstGo(w[top:], s, rows, width, width, left, mid, right, pat)
			fillGo(w[top+rows*width:plane], pat)
		}
		if !bytes.Equal(dst, want) {
			for j := range dst {
				if dst[j] != want[j] {
					t.Fatalf("%s: byte %d is %#x, want %#x", what(), j, dst[j], want[j])
				}
			}
		}
	}
	t.Logf("%d cases made, %d declined", made, declined)
	if made < 1000 || declined == 0 {
		t.Fatalf("made %d cases, declined %d: too few of one", made, declined)
	}
}

// TestGuardShifted: Pads whose rows take rowsShiftedBytes (a crop on one
// side of the innermost axis and a pad on the other, REP MOVSB for every
// copy), with dst and src against guard pages, compared with refPad.
func TestGuardShifted(t *testing.T) {
	if kernelsInUse() == nil || kernelsInUse().copyRep == nil {
		t.Skip("no REP MOVSB copy at this level")
	}
	setForTest(t, &repMinBytes, 1)
	a := newGuardArena(t, 2, 1<<20)
	r := rand.New(rand.NewPCG(9, 10))
	for i := range 200 {
		es := kernelSizes[i%5]
		w := 1 + r.IntN(300)
		c := 1 + r.IntN(min(w, 20)) // cropped on one side, padded on the other
		before, after := []int{0, 0, r.IntN(3), -c}, []int{0, 0, r.IntN(3), c}
		if i%2 == 1 {
			before[3], after[3] = c, -c
		}
		shape := []int{1 + r.IntN(2), 1 + r.IntN(3), 2 + r.IntN(30), w}
		spec := Spec{Mode: Constant, Before: before, After: after}
		p, err := newExecPlan(shape, spec, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, es*prod(shape))
		value := randomBytes(r, es)
		if i%4 == 0 {
			value = make([]byte, es)
		}
		want, _, err := refPad(in, es, shape, spec, value)
		if err != nil {
			t.Fatal(err)
		}
		for _, end := range []bool{true, false} {
			shift := r.IntN(64)
			dst, _ := a.place(0, len(want), shift, end)
			src, _ := a.place(1, len(in), r.IntN(64), end)
			a.runPlan(t, p, dst, src, in, es, value, want, fmt.Sprintf("%v %v size %d, %s, dst %d from its page", shape, spec, es, guardPass(end), shift))
		}
	}
}
