//go:build unix && !purego && !noasm

package pad

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime/debug"
	"testing"

	"github.com/tensorpad/pad/internal/suite"
)

// expandCall is one random call of an expand kernel: a table of masks,
// an output length, a pattern, and the input the masks take.
type expandCall struct {
	masks      []uint64 // entries+expandCopies, the last ones copies of the first ones
	words      []byte   // for words calls, the word masks (expandTable.dwords)
	entries, n int
	pat        [32]byte
	srcLen     int
	seed       uint64
	end        uintptr // the kernels' srcEnd for the input where check put it
}

// randomExpandCall returns a random call; with words, one whose masks take
// whole 4-byte words and whose length is a multiple of 4 (the word
// kernels').
func randomExpandCall(r *rand.Rand, words bool) expandCall {
	c := expandCall{entries: expandCopies + 1 + r.IntN(40), n: 1 + r.IntN(64*40), seed: r.Uint64()}
	if r.IntN(4) == 0 {
		c.n = 1 + r.IntN(64*10) // the kernels' turns of eight or two, single and tail steps
	}
	c.masks = make([]uint64, c.entries+expandCopies)
	for j := range c.entries {
		switch r.IntN(5) {
		case 4: // the mask before again, as the blocks of a dilation repeat
			if j > 0 {
				c.masks[j] = c.masks[j-1]
				break
			}
			fallthrough
		case 0:
			c.masks[j] = 0
		case 1:
			c.masks[j] = ^uint64(0)
		case 2: // a run, as rows make
			c.masks[j] = ^uint64(0) << r.IntN(64) >> r.IntN(64)
		default:
			c.masks[j] = r.Uint64()
		}
	}
	if words {
		c.n = (c.n + 3) &^ 3
		for j := range c.entries {
			var m uint64
			for i := range 16 { // each word takes as its first byte does
				m |= (c.masks[j] >> (4 * i) & 1) * 15 << (4 * i)
			}
			c.masks[j] = m
		}
	}
	for i := range expandCopies {
		c.masks[c.entries+i] = c.masks[i%c.entries]
	}
	if words {
		c.words = dwordMasks(c.masks) // 2*entries, then 2*expandCopies copies
	}
	for i := range c.pat {
		c.pat[i] = byte(r.Uint32())
	}
	for j := 0; 64*j < c.n; j++ {
		m := c.masks[j%c.entries]
		if rest := c.n - 64*j; rest < 64 {
			m &= 1<<rest - 1
		}
		c.srcLen += bits.OnesCount64(m)
	}
	return c
}

func (c expandCall) String() string {
	return fmt.Sprintf("entries %d, n %d, %d input bytes", c.entries, c.n, c.srcLen)
}

// expandKernel is an expand kernel under test: its name, whether it takes
// word tables, and a call of it.
type expandKernel struct {
	name  string
	words bool
	run   func(c *expandCall, dst, src *byte)
}

// expandKernels returns the expand kernels of every level this CPU
// supports, or skips the test if it has none.
func expandKernels(t *testing.T) []expandKernel {
	var ks []expandKernel
	for _, set := range asmKernelSets {
		if !set.supported {
			continue
		}
		if k := set.rowsExpand; k != nil {
			ks = append(ks, expandKernel{"rowsExpand " + set.level.String(), false, func(c *expandCall, dst, src *byte) {
				k(dst, src, c.n, &c.masks[0], c.entries, &c.pat, c.end)
			}})
		}
		if k := set.rowsExpandBytes; k != nil {
			ks = append(ks, expandKernel{"rowsExpandBytes " + set.level.String(), false, func(c *expandCall, dst, src *byte) {
				k(dst, src, c.n, &c.masks[0], c.entries, &c.pat, c.end)
			}})
		}
		if k := set.rowsExpandHalves; k != nil {
			ks = append(ks, expandKernel{"rowsExpandHalves " + set.level.String(), false, func(c *expandCall, dst, src *byte) {
				ht := newHalfTable(c.masks, c.entries)
				if ht == nil {
					panic(fmt.Sprintf("%v: no half table", c)) // 2*entries+1 halves at most: it has one
				}
				k(dst, src, c.n, &ht.blocks[0], c.entries, &ht.dict[0], &c.pat, c.end)
			}})
		}
		if k := set.rowsExpandDwords; k != nil {
			ks = append(ks, expandKernel{"rowsExpandDwords " + set.level.String(), true, func(c *expandCall, dst, src *byte) {
				k(dst, src, c.n, &c.words[0], 2*c.entries, &c.pat, c.end)
			}})
		}
	}
	if len(ks) == 0 {
		t.Skip("no level of this CPU has an expand kernel (AVX-512 VBMI2, or AVX2)")
	}
	return ks
}

// check runs the call with dst (64-byte aligned) and src at the ends (or
// starts) of guarded regions of a, and compares with rowsExpandGo: the
// input ends at a guard page, the bytes after dst's last up to its line's
// end must keep their value.
func (c expandCall) check(t *testing.T, a *guardArena, k expandKernel) {
	r := rand.New(rand.NewPCG(c.seed, 1))
	in := randomBytes(r, c.srcLen)
	line := (c.n + 63) &^ 63
	want := bytes.Repeat([]byte{0xA5}, line)
	rowsExpandGo(want, in, c.n, c.masks, c.entries, &c.pat)
	for _, end := range [2]bool{true, false} {
		dst, _ := a.place(0, line, 0, end)
		// With no input, a byte the masks do not take: the kernels load
		// from src whatever they take, as rowsExpandPads passes its last
		// input byte past the input.
		src, ps := a.place(1, max(len(in), 1), 0, end)
		copy(src, in)
		c.end = pageEnd(src)
		for i := range dst {
			dst[i] = 0xA5
		}
		func() {
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer a.catchFault(t, func() string { return fmt.Sprintf("%s %v, %s", k.name, c, guardPass(end)) })
			k.run(&c, &dst[0], ps)
		}()
		if !bytes.Equal(dst, want) {
			t.Fatalf("%s %v, %s: %s", k.name, c, guardPass(end), gridFirstDiff(dst, want))
		}
		if !bytes.Equal(src[:len(in)], in) {
			t.Fatalf("%s %v, %s: the kernel wrote to its input", k.name, c, guardPass(end))
		}
	}
}

// TestRowsExpandKernel checks the expand kernels against their Go version
// on random tables, with the input against a guard page (reading a byte
// past srcEnd, the end of its last byte's page, fails) and the output's
// line against another.
func TestRowsExpandKernel(t *testing.T) {
	a := newGuardArena(t, 2, 64*44)
	r := rand.New(rand.NewPCG(11, 12))
	calls := 3000
	if testing.Short() {
		calls = 300
	}
	for _, k := range expandKernels(t) {
		for range calls {
			randomExpandCall(r, k.words).check(t, a, k)
		}
	}
}

func FuzzRowsExpand(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		arena := newGuardArena(t, 2, 64*44)
		for _, k := range expandKernels(t) {
			randomExpandCall(rand.New(rand.NewPCG(a, b)), k.words).check(t, arena, k)
		}
	})
}

// TestExpandPlanes pads random batches of planes by constant padding (pad
// rows and pad columns, any value, element sizes 1 to 16) with dst on a
// 64-byte boundary, where the expand kernel runs, and elsewhere, dst and
// src against guard pages; compared with the reference.
func TestExpandPlanes(t *testing.T) {
	expandKernels(t)
	for _, l := range []kernelLevel{active, levelAVX2} {
		t.Run(l.String(), func(t *testing.T) { withLevel(l, func() { testExpandPlanes(t) }) })
	}
}

func testExpandPlanes(t *testing.T) {
	a := newGuardArena(t, 2, 1<<20)
	r := rand.New(rand.NewPCG(5, 6))
	cases := 300
	if testing.Short() {
		cases = 50
	}
	taken := 0
	for range cases {
		es := 1 << r.IntN(5)
		// Rows of up to 40 elements, at most 120 bytes with the widest
		// pads (the AVX2 word kernel's bound), or feature maps.
		h, w := 1+r.IntN(20), 1+r.IntN(min(40, max(1, avx2ExpandDwordsMaxWidth/es-6)))
		if r.IntN(2) == 0 { // feature maps
			h = 7 << r.IntN(3)
			w = h
		}
		tp, bp, lp, rp := r.IntN(3), r.IntN(3), r.IntN(4), r.IntN(4)
		if tp+bp == 0 {
			tp = 1
		}
		if h > 2 && bp > 0 && r.IntN(4) == 0 {
			tp = -1 - r.IntN(2) // a crop: input planes that do not follow each other
		}
		shape := []int{1 + r.IntN(2), 1 + r.IntN(6), h, w}
		spec := Spec{Mode: Constant, Before: []int{0, 0, tp, lp}, After: []int{0, 0, bp, rp}}
		p, err := newExecPlan(shape, spec, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		if tb := p.tablesFor(es).expand; tb != nil && (kernelsInUse().rowsExpand != nil || kernelsInUse().expandWords(tb)) {
			taken++ // a table the level's kernel takes
		}
		in := randomBytes(r, es*prod(shape))
		value := randomBytes(r, es)
		want, _, err := refPad(in, es, shape, spec, value)
		if err != nil {
			t.Fatal(err)
		}
		// dst aligned with its last line at the guard page, aligned at
		// the page's start, then anywhere; the input at the page.
		for pass := range 3 {
			end := pass != 1
			shift := (-len(want)) & 63
			switch pass {
			case 1:
				shift = 0
			case 2:
				shift = r.IntN(64)
			}
			dst, _ := a.place(0, len(want), shift, end)
			src, _ := a.place(1, len(in), 0, end)
			a.runPlan(t, p, dst, src, in, es, value, want, fmt.Sprintf("%v %v size %d, %s, dst %d from its page", shape, spec, es, guardPass(end), shift))
		}
	}
	// At the AVX2 level only word tables of rows up to its bound count.
	if taken < cases/3 {
		t.Fatalf("only %d of %d cases have expand tables", taken, cases)
	}
	t.Logf("%d of %d cases with expand tables", taken, cases)
}

// BenchmarkExpandPlanes: conv pads (constant 0 around H and W by 1, float32)
// through RunBytes with dst on a 64-byte boundary, where the expand kernel
// runs, and 16 bytes off it, where it runs from the first plane that starts
// on a line and the planes before that take the aligned kernel (wide rows)
// or the shuffle kernel (narrow rows), against the memmove of the output
// (suite case a: [1, 64, 56, 56]; then late-layer feature maps).
func BenchmarkExpandPlanes(b *testing.B) {
	for _, shape := range [][]int{{1, 64, 56, 56}, {1, 256, 14, 14}, {1, 512, 7, 7}} {
		p, err := NewPlan(shape, Spec{Before: []int{0, 0, 1, 1}, After: []int{0, 0, 1, 1}}, Workers(1))
		if err != nil {
			b.Fatal(err)
		}
		in, out := 4*shape[1]*shape[2]*shape[3], 4*shape[1]*(shape[2]+2)*(shape[3]+2)
		src, buf, from := benchBytes(in), benchBytes(out+64), benchBytes(out)
		name := fmt.Sprintf("shape=%v", shape)
		b.Run(name+"/memmove", func(b *testing.B) {
			b.SetBytes(int64(out))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				copy(buf[:out], from)
			}
		})
		for _, off := range []int{0, 16} {
			b.Run(fmt.Sprintf("%s/dstOff=%d", name, off), func(b *testing.B) {
				b.SetBytes(int64(out))
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := p.RunBytes(buf[off:off+out], src, 4, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// TestByteExpandMaxWidth checks the rule that bounds the rows of the byte
// expand kernel on AMD from Zen 5 on, and that the tables follow it: at
// its bound, planes of uint8 conv-padded rows of 30 bytes have an expand
// table and rows of 58 bytes none, float32 rows (the word kernels) keep
// theirs; without it all do; the outputs are the reference's either way.
func TestByteExpandMaxWidth(t *testing.T) {
	want := 0
	if isAMD() && cpuFamily() >= 26 {
		want = 46
	}
	if byteExpandMaxWidth != want {
		t.Errorf("byteExpandMaxWidth %d, want %d (AMD %v, family %d)", byteExpandMaxWidth, want, isAMD(), cpuFamily())
	}
	setForTest(t, &periodicAtFirstRun, true)
	setForTest(t, &byteExpandMaxWidth, byteExpandMaxWidth)
	r := rand.New(rand.NewPCG(49, 50))
	for _, c := range []struct {
		size, w, bound int
		table          bool
	}{
		{1, 28, 46, true},
		{1, 56, 46, false},
		{1, 56, 0, true},
		{4, 56, 46, true},
	} {
		byteExpandMaxWidth = c.bound
		shape := []int{8, c.w, c.w}
		spec := Spec{Mode: Constant, Before: []int{0, 1, 1}, After: []int{0, 1, 1}}
		p, err := newExecPlan(shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, c.size*prod(shape))
		want, _, err := refPad(in, c.size, shape, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]byte, len(want))
		if err := p.RunBytes(dst, in, c.size, nil); err != nil || !bytes.Equal(dst, want) {
			t.Errorf("%v size %d, bound %d: output differs from the reference (%v)", shape, c.size, c.bound, err)
		}
		if got := p.tablesFor(c.size).expand != nil; got != c.table {
			t.Errorf("%v size %d (rows of %d bytes), bound %d: expand table %v, want %v", shape, c.size, (c.w+2)*c.size, c.bound, got, c.table)
		}
	}
}

// TestExpandDwordsMaxWidth checks the rule that bounds the rows of the
// AVX2 word expand kernel on AMD from Zen 5 on (the AVX-512 level's has
// no bound), and that at the bound the planes of constant rows up to
// avx2ExpandDwordsMaxWidth bytes take the kernel and wider ones do not
// (the rows kernels make them), with outputs equal to the reference's
// either way.
func TestExpandDwordsMaxWidth(t *testing.T) {
	ks := kernelsAt(levelAVX2)
	if !ks.supported || ks.rowsExpandDwords == nil {
		t.Skip("no AVX2 word expand kernel on this CPU")
	}
	want := 0
	if isAMD() && cpuFamily() >= 26 {
		want = avx2ExpandDwordsMaxWidth
	}
	if ks.expandDwordsMaxWidth != want {
		t.Errorf("AVX2 expandDwordsMaxWidth %d, want %d (AMD %v, family %d)", ks.expandDwordsMaxWidth, want, isAMD(), cpuFamily())
	}
	if ks := kernelsAt(levelAVX512); ks != nil && ks.expandDwordsMaxWidth != 0 {
		t.Errorf("AVX-512 expandDwordsMaxWidth %d, want 0 (no bound)", ks.expandDwordsMaxWidth)
	}
	setForTest(t, &periodicAtFirstRun, true)
	setForTest(t, &ks.expandDwordsMaxWidth, avx2ExpandDwordsMaxWidth)
	setForTest(t, &planeBlocksOn, false) // the blocks kernel takes float32 7x7 planes first
	calls := 0
	kernel := ks.rowsExpandDwords
	setForTest(t, &ks.rowsExpandDwords, func(dst, src *byte, n int, tab *byte, entries int, pat *[32]byte, srcEnd uintptr) {
		calls++
		kernel(dst, src, n, tab, entries, pat, srcEnd)
	})
	r := rand.New(rand.NewPCG(51, 52))
	for _, c := range []struct {
		size, w, pad int
		taken        bool
	}{
		{4, 7, 1, true},   // rows of 36 bytes
		{4, 28, 1, true},  // 120 bytes: the bound
		{4, 28, 2, false}, // 128 bytes
		{8, 7, 1, true},   // 72 bytes
		{8, 14, 1, false}, // 128 bytes
		{4, 56, 1, false}, // 232 bytes: suite case a's rows
	} {
		shape := []int{1, 16, c.w, c.w}
		spec := Spec{Mode: Constant, Before: []int{0, 0, c.pad, c.pad}, After: []int{0, 0, c.pad, c.pad}}
		p, err := newExecPlan(shape, spec, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, c.size*prod(shape))
		value := randomBytes(r, c.size)
		want, _, err := refPad(in, c.size, shape, spec, value)
		if err != nil {
			t.Fatal(err)
		}
		width := (c.w + 2*c.pad) * c.size
		if tb := p.tablesFor(c.size).expand; tb == nil || tb.dwords == nil || tb.width != width {
			t.Fatalf("%v %v size %d: no word expand table for rows of %d bytes", shape, spec, c.size, width)
		}
		dst := suite.AlignedBytes(len(want)) // the expand kernel's phase
		calls = 0
		withLevel(levelAVX2, func() {
			if err := p.RunBytes(dst, in, c.size, value); err != nil {
				t.Fatal(err)
			}
		})
		if !bytes.Equal(dst, want) {
			t.Errorf("%v %v size %d: output differs from the reference", shape, spec, c.size)
		}
		if taken := calls > 0; taken != c.taken {
			t.Errorf("%v %v size %d (rows of %d bytes): word expand kernel called %d times, want taken %v", shape, spec, c.size, width, calls, c.taken)
		}
	}
}

// TestExpandRows runs random plans of constant rows of up to
// rowExpandMaxWidth bytes (tall planes with and without pad rows), of
// planes of up to planeExpandMax bytes, and of cubes (cubeExpandOf), at
// every level in use, with dst and
// src against guard pages at random line phases (so that runs start with
// rows before the first aligned one, and planes whose rows never start on
// a line take the other kernels), against the reference. It fails unless
// the expand kernels made rows in at least a third of the plans where the
// level in use has them for such runs, planes and cubes.
func TestExpandRows(t *testing.T) {
	setForTest(t, &periodicAtFirstRun, true)
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(137, 138))
	calls := 0
	for _, l := range levels {
		countExpandCalls(t, kernelsAt(l), &calls)
	}
	a := newGuardArena(t, 2, 1<<20)
	cases, taken, eligible := 300, 0, 0
	if testing.Short() {
		cases = 60
	}
	for range cases {
		p, shape, spec, es, value, in, want := newExpandRowsCase(t, r)
		tb := p.tablesFor(es)
		for _, l := range levels {
			for pass := range 3 {
				end := pass != 1
				shift := r.IntN(64)
				if pass == 2 {
					shift = (-len(want)) & 63 // dst on a line boundary, its end at the guard page
				}
				dst, _ := a.place(0, len(want), shift, end)
				src, _ := a.place(1, len(in), r.IntN(64), end)
				before := calls
				withLevel(l, func() {
					a.runPlan(t, p, dst, src, in, es, value, want, fmt.Sprintf("%v %v size %d, level %v, %s, dst %d from its page", shape, spec, es, l, guardPass(end), shift))
				})
				rows := tb.rowExpand != nil && expandsRows(tb.rowExpand)
				planes := tb.expand != nil && tb.expand.plane <= planeExpandMax && expandsRows(tb.expand)
				cubes := tb.cubeExpand != nil && expandsRows(tb.cubeExpand)
				if pass == 2 && l == active && (rows || planes || cubes) {
					eligible++
					if calls > before {
						taken++
					}
				}
			}
		}
	}
	if eligible > 0 && taken < eligible/3 {
		t.Fatalf("the expand kernels made rows in only %d of %d plans where they could", taken, eligible)
	}
	t.Logf("the expand kernels made rows in %d of %d plans with tables at the level in use (%v)", taken, eligible, active)
}

// TestExpandWorkers runs TestExpandRows's plans on three workers, which
// split the runs of rows, planes and cubes the expand kernels make (each
// share from its first block on a line), against the reference.
func TestExpandWorkers(t *testing.T) {
	setForTest(t, &periodicAtFirstRun, true)
	r := rand.New(rand.NewPCG(139, 140))
	cases := 100
	if testing.Short() {
		cases = 20
	}
	for range cases {
		shape, spec, es, value := drawExpandRows(r)
		p, err := newExecPlan(shape, spec, Workers(3))
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, es*prod(shape))
		want, _, err := refPad(in, es, shape, spec, value)
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, len(want))
		if err := p.RunBytes(got, in, es, value); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%v %v size %d, 3 workers: output differs from the reference", shape, spec, es)
		}
	}
}

// TestExpandShifted runs plans whose planes, cubes or rows never start on
// a line at dst's phase (their size a multiple of 64, or rows of 16 bytes
// at a phase off 16), so that the expand kernels make them from dst's
// first line boundary by a shifted table (rowsExpandShifted), at phases
// that are and are not whole words, with dst and src against guard
// pages, against the reference. Where the level has the byte kernel, it
// fails unless the kernels ran at every phase.
func TestExpandShifted(t *testing.T) {
	setForTest(t, &periodicAtFirstRun, true)
	ks := kernelsInUse()
	if ks == nil {
		t.Skip("no assembly kernels")
	}
	calls := 0
	countExpandCalls(t, ks, &calls)
	a := newGuardArena(t, 2, 1<<20)
	r := rand.New(rand.NewPCG(141, 142))
	for _, c := range []struct {
		shape         []int
		before, after []int
		size          int
	}{
		{[]int{1, 24, 14, 14}, []int{0, 0, 1, 1}, []int{0, 0, 1, 1}, 4}, // 1024-byte planes
		{[]int{1, 16, 30, 30}, []int{0, 0, 1, 1}, []int{0, 0, 1, 1}, 1}, // 1024-byte planes of bytes
		{[]int{9, 3, 6, 6}, []int{0, 1, 1, 1}, []int{0, 0, 1, 1}, 8},    // 2048-byte cubes
		{[]int{8192, 2}, []int{0, 1}, []int{0, 1}, 4},                   // 16-byte rows
	} {
		spec := Spec{Mode: Constant, Before: c.before, After: c.after}
		p, err := newExecPlan(c.shape, spec, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, c.size*prod(c.shape))
		value := randomBytes(r, c.size)
		want, _, err := refPad(in, c.size, c.shape, spec, value)
		if err != nil {
			t.Fatal(err)
		}
		for _, phase := range []int{0, 1, 4, 8, 16, 36, 60} {
			dst, _ := a.place(0, len(want), phase, false)
			src, _ := a.place(1, len(in), 0, true)
			before := calls
			for range 2 {
				a.runPlan(t, p, dst, src, in, c.size, value, want, fmt.Sprintf("%v %v size %d, dst %d bytes into a line", c.shape, spec, c.size, phase))
			}
			if phase != 0 && ks.rowsExpand != nil && ks.expandsRows && calls == before {
				t.Errorf("%v %v size %d, dst %d bytes into a line: no expand kernel ran", c.shape, spec, c.size, phase)
			}
		}
	}
}

// countExpandCalls counts the calls of ks's expand kernels (byte and
// word) in *calls until the test ends.
func countExpandCalls(t *testing.T, ks *asmKernels, calls *int) {
	if k := ks.rowsExpand; k != nil {
		setForTest(t, &ks.rowsExpand, func(dst, src *byte, n int, tab *uint64, entries int, pat *[32]byte, srcEnd uintptr) {
			*calls++
			k(dst, src, n, tab, entries, pat, srcEnd)
		})
	}
	if k := ks.rowsExpandDwords; k != nil {
		setForTest(t, &ks.rowsExpandDwords, func(dst, src *byte, n int, tab *byte, entries int, pat *[32]byte, srcEnd uintptr) {
			*calls++
			k(dst, src, n, tab, entries, pat, srcEnd)
		})
	}
}

// newExpandRowsCase draws a plan of TestExpandRows (drawExpandRows) and
// returns it with its input and the reference's output.
func newExpandRowsCase(t *testing.T, r *rand.Rand) (p *Plan, shape []int, spec Spec, es int, value, in, want []byte) {
	shape, spec, es, value = drawExpandRows(r)
	p, err := newExecPlan(shape, spec, Workers(1))
	if err != nil {
		t.Fatal(err)
	}
	in = randomBytes(r, es*prod(shape))
	if want, _, err = refPad(in, es, shape, spec, value); err != nil {
		t.Fatal(err)
	}
	return p, shape, spec, es, value, in, want
}

// drawExpandRows draws a plan of TestExpandRows: constant rows of up to
// rowExpandMaxWidth bytes in tall planes, with pad rows or none, cubes of
// up to 32 KiB, or planes of up to planeExpandMax+8 bytes, the last two
// some with a crop; a value or none.
func drawExpandRows(r *rand.Rand) (shape []int, spec Spec, es int, value []byte) {
	es = 1 << r.IntN(4)
	switch kind := r.IntN(4); kind {
	case 0, 1: // tall planes of rows, with pad rows or none
		var mid, left, right int
		for {
			mid, left, right = 1+r.IntN(rowExpandMaxWidth/es), r.IntN(4), r.IntN(4)
			if left+right > 0 && (mid+left+right)*es <= rowExpandMaxWidth {
				break
			}
		}
		rows := (rowsExpandRowsMin + r.IntN(3*rowsExpandRowsMin)) / ((mid + left + right) * es)
		shape = []int{rows, mid}
		spec = Spec{Mode: Constant, Before: []int{0, left}, After: []int{0, right}}
		if kind == 1 {
			shape = []int{1 + r.IntN(3), rows, mid}
			spec = Spec{Mode: Constant, Before: []int{0, r.IntN(3), left}, After: []int{0, r.IntN(3), right}}
		}
	case 2: // cubes: pad planes around planes of pad rows, some with a crop
		for {
			c, h, w := 1+r.IntN(6), 1+r.IntN(24), 1+r.IntN(24) // some with periods past 2048 masks
			spec = Spec{Mode: Constant, Before: []int{0, r.IntN(3), r.IntN(3), r.IntN(3)}, After: []int{0, r.IntN(3), r.IntN(3), r.IntN(3)}}
			cube := (c + spec.Before[1] + spec.After[1]) * (h + spec.Before[2] + spec.After[2]) * (w + spec.Before[3] + spec.After[3]) * es
			if spec.Before[1]+spec.After[1] > 0 && cube <= 32<<10 {
				shape = []int{2 + r.IntN(max(1, 100000/cube)), c, h, w}
				if r.IntN(2) == 0 {
					shape[0] = 2 + r.IntN(3) // a few: a table of them only where the period is long
				}
				if a := 1 + r.IntN(3); r.IntN(4) == 0 && spec.Before[a] == 0 {
					spec.Before[a] = -1 // a crop: no cube table
					shape[a]++
				}
				break
			}
		}
	default: // tiny planes
		for {
			h, w := 1+r.IntN(4), 1+r.IntN(4)
			spec = Spec{Mode: Constant, Before: []int{0, r.IntN(3), r.IntN(3)}, After: []int{0, r.IntN(3), r.IntN(3)}}
			plane := (h + spec.Before[1] + spec.After[1]) * (w + spec.Before[2] + spec.After[2]) * es
			if spec.Before[1]+spec.After[1] > 0 && plane <= planeExpandMax+8 {
				shape = []int{1 + r.IntN(40000/plane), h, w}
				if h > 1 && spec.Before[1] == 0 && r.IntN(2) == 0 {
					spec.Before[1] = -1 // a crop: the run starts at input row 1
					shape[1]++
				}
				break
			}
		}
	}
	if r.IntN(2) == 0 {
		value = randomBytes(r, es)
	}
	return shape, spec, es, value
}

// FuzzExpandRows runs TestExpandRows's plans, drawn from the fuzzer's
// seeds, at the level in use with dst at any line phase and src against
// guard pages, against the reference.
func FuzzExpandRows(f *testing.F) {
	f.Add(uint64(1), uint64(2), uint8(0))
	f.Add(uint64(3), uint64(4), uint8(16))
	f.Fuzz(func(t *testing.T, a, b uint64, shift uint8) {
		p, shape, spec, es, value, in, want := newExpandRowsCase(t, rand.New(rand.NewPCG(a, b)))
		arena := newGuardArena(t, 2, 1<<20)
		for _, end := range []bool{false, true} {
			dst, _ := arena.place(0, len(want), int(shift%64), end)
			src, _ := arena.place(1, len(in), 0, end)
			for range 2 { // the second run with the periodic tables
				arena.runPlan(t, p, dst, src, in, es, value, want, fmt.Sprintf("%v %v size %d, %s, dst %d from its page", shape, spec, es, guardPass(end), shift%64))
			}
		}
	})
}
