//go:build amd64 && unix && gc && !purego && !noasm

package pad

// Tests of the ends kernel (KERNELS.md item 14) against its Go version:
// every pad length 0..16 on each side over middles from 32 bytes, random
// tables (indexes with bit 7 set or not, any low bits, any masks), between
// canaries with gaps between rows and planes and broadcast src rows, then
// against PROT_NONE pages; a fuzz target; and the tables plans build.

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

type endsCase struct {
	rowsGeometry
	tab *endsTable
	pat *[32]byte
}

func (c *endsCase) goVersion(dst, src []byte) {
	for p := range c.pl.n {
		rowsEndsGo(dst[p*c.pl.dst:], src[p*c.pl.src:], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.left, c.tab, c.pat)
	}
}

func (c *endsCase) asm(ks asmKernels, dst, src []byte) {
	ks.rowsEnds(&dst[0], &src[0], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.left, c.tab.bytes(), c.pat, c.pl.n, c.pl.dst, c.pl.src)
}

// randomEndsCase draws a table (any bytes: indexes with bit 7 set or not,
// any masks) and a geometry for rows of left+mid+right bytes.
func randomEndsCase(r *rand.Rand, left, mid, right int) *endsCase {
	c := &endsCase{tab: new(endsTable), pat: randomPattern(r, left+mid+right)}
	for i := range c.tab {
		c.tab[i] = byte(r.IntN(256))
	}
	c.rowsGeometry = randomRowsGeometry(r, left, mid, right)
	return c
}

// endsKernelsOrSkip returns the first supported level with the ends
// kernel.
func endsKernelsOrSkip(t testing.TB) asmKernels {
	return kernelSetOrSkip(t, func(ks *asmKernels) bool { return ks.rowsEnds != nil }, "the CPU has no AVX2: no ends kernel")
}

// endsMids are the src row lengths the tests try: with pads of 0 to 16
// bytes, every width around the kernel's four row loops (up to 48 bytes,
// 49 to 63, 64 to 191, 192 and more: asm/ends.go's endsWideMin) and its
// vectors.
var endsMids = []int{32, 33, 40, 47, 48, 49, 63, 64, 65, 80, 95, 96, 97, 112, 127, 128, 160, 176, 190, 200, 1000, 4100}

func TestRowsEndsKernel(t *testing.T) {
	endsKernelSweep(t, endsKernelsOrSkip(t), 41, endsMids, 16, func(r *rand.Rand, left, mid, right int) tableCall {
		return randomEndsCase(r, left, mid, right)
	})
}

func TestRowsEndsGuard(t *testing.T) {
	endsGuardSweep(t, endsKernelsOrSkip(t), 43, endsMids, []int{0, 1, 5, 15, 16}, []int{0, 2, 16}, func(r *rand.Rand, left, mid, right int) tableCall {
		return randomEndsCase(r, left, mid, right)
	})
}

func FuzzRowsEnds(f *testing.F) {
	fuzzEnds(f, endsKernelsOrSkip, 16, func(r *rand.Rand, left, mid, right int) tableCall {
		return randomEndsCase(r, left, mid, right)
	})
}

// fuzzEnds fuzzes an ends kernel between canaries: pads of 0 to pads bytes
// on each side of src rows of 32 to 331 bytes, cases from newCase.
func fuzzEnds(f *testing.F, kernels func(testing.TB) asmKernels, pads int, newCase func(r *rand.Rand, left, mid, right int) tableCall) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		ks := kernels(t)
		r := rand.New(rand.NewPCG(a, b))
		left, right, mid := r.IntN(pads+1), r.IntN(pads+1), 32+r.IntN(300)
		checkCanaries(t, r, ks, newCase(r, left, mid, right), byte(a))
	})
}

// TestEndsPlanes pads planes of rows whose pads are at most 16 bytes each
// (edge, reflect, symmetric and wrap, element sizes 1 to 16, rows of 32 to
// 600 bytes, crops too) at the AVX2 level, where the ends kernel makes
// them, and at the AVX-512 level with the wide kernels left out
// (wideInCache), with dst and src against guard pages; compared with the
// reference.
func TestEndsPlanes(t *testing.T) {
	endsKernelsOrSkip(t)
	levels := supportedLevels(func(ks *asmKernels) bool { return ks.rowsEnds != nil })
	setForTest(t, &wideInCache, false)
	r := rand.New(rand.NewPCG(45, 46))
	runRandomPlans(t, r, levels, 300, 4, drawEndsPlanes(r, []int{1, 2, 4, 8, 16}, 16), func(p *Plan, es int) bool {
		lv := &p.levels[len(p.levels)-1]
		return p.tablesFor(es).ends != nil && endsPays(&lv.row, lv.outLen*lv.blk*es)
	}, "take the ends kernel")
}

// drawEndsPlanes returns a draw for runRandomPlans: 1 to 4 planes of 2 to
// 13 rows of 32 to 600 bytes, of elements of one of sizes bytes, padded by
// up to maxPad bytes on each side of the rows (a crop on one side a
// quarter of the time) and 0 to 2 rows, in edge, reflect, symmetric or
// wrap mode.
func drawEndsPlanes(r *rand.Rand, sizes []int, maxPad int) func() ([]int, Spec, int, []byte) {
	return func() ([]int, Spec, int, []byte) {
		es := sizes[r.IntN(len(sizes))]
		w := max(2, (32+r.IntN(560))/es)
		pads := func() int { return r.IntN(maxPad/es + 1) }
		lp, rp, tp, bp := pads(), pads(), r.IntN(3), r.IntN(3)
		h := 2 + r.IntN(12)
		mode := []Mode{Edge, Reflect, Symmetric, Wrap}[r.IntN(4)]
		if mode == Reflect {
			lp, rp, tp, bp = min(lp, w-1), min(rp, w-1), min(tp, h-1), min(bp, h-1)
		}
		if r.IntN(4) == 0 && w*es > 48 { // a crop on one side
			lp = -r.IntN(3)
		}
		spec := Spec{Mode: mode, Before: []int{0, tp, lp}, After: []int{0, bp, rp}}
		return []int{1 + r.IntN(4), h, w}, spec, es, nil
	}
}

// TestWideInCache checks the rule that keeps rows in the core's cache off
// the wide kernels on AMD from Zen 5 on, and that the executor follows it:
// planes of 136-byte wrapped rows take the ends kernel and constant ones
// the rows kernels when it is off, the wide kernels when it is on, and an
// output past the core's cache, or rows wrapped by more than the ends
// kernel's 16 bytes, keep the wide kernels; every output is the
// reference's.
func TestWideInCache(t *testing.T) {
	if want := !(isAMD() && cpuFamily() >= 26); wideInCache != want {
		t.Errorf("wideInCache %v, want %v (AMD %v, family %d)", wideInCache, want, isAMD(), cpuFamily())
	}
	ks := kernelsInUse()
	if ks == nil || ks.rowsWide == nil || ks.rowsAligned == nil || ks.rowsEnds == nil {
		t.Skip("the level in use has no wide kernels (AVX-512 VBMI)")
	}
	setForTest(t, &wideInCache, wideInCache)
	var ends, wide int
	endsK := ks.rowsEnds
	setForTest(t, &ks.rowsEnds, func(dst, src *byte, rows, dstStride, srcStride, width, mid, left int, tab *[96]byte, pat *[32]byte, planes, dstPlane, srcPlane int) {
		ends++
		endsK(dst, src, rows, dstStride, srcStride, width, mid, left, tab, pat, planes, dstPlane, srcPlane)
	})
	countWideCalls(t, ks, &wide) // both wide kernels count as wide
	countAlignedCalls(t, &ks.rowsAligned, &wide)
	r := rand.New(rand.NewPCG(47, 48))
	for _, c := range []struct {
		mode   Mode
		planes int
		pad    int  // elements each side of H and W
		on     bool // wideInCache
		ends   bool // the ends kernel makes the rows
		wide   bool // the wide kernels do
	}{
		{Wrap, 64, 3, true, false, true},
		{Wrap, 64, 3, false, true, false},
		{Wrap, 600, 3, false, false, true}, // 2.8 MB of output: past the core's cache
		{Wrap, 64, 5, false, false, true},  // 20-byte pads: no ends table
		{Constant, 64, 3, true, false, true},
		{Constant, 64, 3, false, false, false},
		{Edge, 64, 5, false, false, false}, // the rows kernels
	} {
		wideInCache, ends, wide = c.on, 0, 0
		shape := []int{c.planes, 28, 80} // rows of 320 bytes in: not the shuffle256 kernel's
		spec := Spec{Mode: c.mode, Before: []int{0, c.pad, c.pad}, After: []int{0, c.pad, c.pad}}
		p, err := newExecPlan(shape, spec, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, 4*prod(shape))
		want, _, err := refPad(in, 4, shape, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]byte, len(want)+16)[16:] // off the expand kernel's 64-byte grid
		if err := p.RunBytes(dst, in, 4, nil); err != nil || !bytes.Equal(dst, want) {
			t.Errorf("%v %v, wideInCache %v: output differs from the reference (%v)", shape, c.mode, c.on, err)
		}
		if (ends > 0) != c.ends || (wide > 0) != c.wide {
			t.Errorf("%v %v, wideInCache %v: %d ends and %d wide kernel calls, want ends %v, wide %v", shape, c.mode, c.on, ends, wide, c.ends, c.wide)
		}
	}
}

// The word ends kernel (KERNELS.md item 14b), likewise: every pad length
// 0..32 on each side, random tables (any bytes: the kernel reads the low
// three bits of each dword's low byte and the sign bit of every byte) and
// windows.

type endsWordsCase struct {
	rowsGeometry
	tab *endsWordsTable
	pat *[32]byte
}

func (c *endsWordsCase) goVersion(dst, src []byte) {
	for p := range c.pl.n {
		rowsEndsWordsGo(dst[p*c.pl.dst:], src[p*c.pl.src:], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.left, c.tab, c.pat)
	}
}

func (c *endsWordsCase) asm(ks asmKernels, dst, src []byte) {
	ks.rowsEndsWords(&dst[0], &src[0], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.left, c.tab.aAt, c.tab.bBefore, &c.tab.idx, c.pat, c.pl.n, c.pl.dst, c.pl.src)
}

// randomEndsWordsCase draws a table (any index bytes; windows anywhere in
// the src row, at its ends half the time) and a geometry for rows of
// left+mid+right bytes.
func randomEndsWordsCase(r *rand.Rand, left, mid, right int) *endsWordsCase {
	c := &endsWordsCase{tab: new(endsWordsTable), pat: randomPattern(r, left+mid+right)}
	for i := range c.tab.idx {
		c.tab.idx[i] = byte(r.IntN(256))
	}
	if r.IntN(2) == 0 {
		c.tab.aAt, c.tab.bBefore = r.IntN(mid-31), r.IntN(mid-31)
	}
	c.rowsGeometry = randomRowsGeometry(r, left, mid, right)
	return c
}

func endsWordsKernelsOrSkip(t testing.TB) asmKernels {
	return kernelSetOrSkip(t, func(ks *asmKernels) bool { return ks.rowsEndsWords != nil }, "the CPU has no AVX2: no word ends kernel")
}

// endsWordsMids are the src row lengths the tests try: with pads of 0 to
// 32 bytes, middles of 32 bytes (width 96) and around the vectors.
var endsWordsMids = []int{32, 33, 36, 40, 63, 64, 65, 95, 96, 97, 100, 127, 128, 129, 160, 200, 1000, 4100}

func TestRowsEndsWordsKernel(t *testing.T) {
	endsKernelSweep(t, endsWordsKernelsOrSkip(t), 53, endsWordsMids, 32, func(r *rand.Rand, left, mid, right int) tableCall {
		return randomEndsWordsCase(r, left, mid, right)
	})
}

func TestRowsEndsWordsGuard(t *testing.T) {
	endsGuardSweep(t, endsWordsKernelsOrSkip(t), 55, endsWordsMids, []int{0, 4, 17, 31, 32}, []int{0, 8, 32}, func(r *rand.Rand, left, mid, right int) tableCall {
		return randomEndsWordsCase(r, left, mid, right)
	})
}

// endsKernelSweep checks an ends kernel between canaries: every left and
// right pad of 0 to pads bytes over mids, cases from newCase; the random
// source is PCG(seed, seed+1).
func endsKernelSweep(t *testing.T, ks asmKernels, seed uint64, mids []int, pads int, newCase func(r *rand.Rand, left, mid, right int) tableCall) {
	r := rand.New(rand.NewPCG(seed, seed+1))
	calls := 0
	for _, mid := range mids {
		for left := 0; left <= pads; left++ {
			for right := 0; right <= pads; right++ {
				checkCanaries(t, r, ks, newCase(r, left, mid, right), byte(left))
				calls++
			}
		}
	}
	t.Logf("%d calls", calls)
}

// endsGuardSweep checks an ends kernel against guard pages: eight cases
// (two at each guard position) for each pair of lefts and rights over
// mids; the random source as endsKernelSweep's.
func endsGuardSweep(t *testing.T, ks asmKernels, seed uint64, mids, lefts, rights []int, newCase func(r *rand.Rand, left, mid, right int) tableCall) {
	sdata, ddata, unmap := guardPages(t, 2)
	defer unmap()
	r := rand.New(rand.NewPCG(seed, seed+1))
	calls := 0
	for _, mid := range mids {
		for _, left := range lefts {
			for _, right := range rights {
				for pos := range 8 {
					if checkGuarded(t, r, ks, newCase(r, left, mid, right), sdata, ddata, pos%4) {
						calls++
					}
				}
			}
		}
	}
	t.Logf("%d guarded calls", calls)
}

func FuzzRowsEndsWords(f *testing.F) {
	fuzzEnds(f, endsWordsKernelsOrSkip, 32, func(r *rand.Rand, left, mid, right int) tableCall {
		return randomEndsWordsCase(r, left, mid, right)
	})
}

// TestEndsWordsPlanes pads planes of rows of elements of 4 to 16 bytes
// whose pads are at most 32 bytes each (every mode but constant, rows of 32
// to 600 bytes, crops too) at the levels with the word ends kernel, with
// dst and src against guard pages; compared with the reference.
func TestEndsWordsPlanes(t *testing.T) {
	endsWordsKernelsOrSkip(t)
	levels := supportedLevels(func(ks *asmKernels) bool { return ks.rowsEndsWords != nil })
	r := rand.New(rand.NewPCG(57, 58))
	runRandomPlans(t, r, levels, 300, 4, drawEndsPlanes(r, []int{4, 8, 16}, 32), func(p *Plan, es int) bool {
		lv := &p.levels[len(p.levels)-1]
		return p.tablesFor(es).endsWords != nil && endsWordsPays(&lv.row, lv.outLen*lv.blk*es)
	}, "take the word ends kernel")
}

// TestEndsRoute checks that the executor takes the ends kernels where
// endsPays and endsWordsPays say so and not elsewhere: uint8, float32 and
// float64 planes of up to 24 rows, counting the kernels' calls at the AVX2
// level; every output is the reference's.
func TestEndsRoute(t *testing.T) {
	endsWordsKernelsOrSkip(t)
	withLevel(levelAVX2, func() {
		ks := kernelsInUse()
		var calls [2]int // ends, word ends
		ends, words := ks.rowsEnds, ks.rowsEndsWords
		setForTest(t, &ks.rowsEnds, func(dst, src *byte, rows, dstStride, srcStride, width, mid, left int, tab *[96]byte, pat *[32]byte, planes, dstPlane, srcPlane int) {
			calls[0]++
			ends(dst, src, rows, dstStride, srcStride, width, mid, left, tab, pat, planes, dstPlane, srcPlane)
		})
		setForTest(t, &ks.rowsEndsWords, func(dst, src *byte, rows, dstStride, srcStride, width, mid, left, aAt, bBefore int, tab *[128]byte, pat *[32]byte, planes, dstPlane, srcPlane int) {
			calls[1]++
			words(dst, src, rows, dstStride, srcStride, width, mid, left, aAt, bBefore, tab, pat, planes, dstPlane, srcPlane)
		})
		r := rand.New(rand.NewPCG(59, 60))
		const no, end, word = 0, 1, 2
		for _, c := range []struct {
			es   int
			hw   int
			mode Mode
			pad  int
			take int // no, end or word: the kernel that makes the rows
		}{
			{4, 24, Wrap, 6, word},     // 24-byte pads, 144-byte rows
			{4, 24, Reflect, 5, word},  // reads s[4:24]
			{4, 24, Reflect, 8, word},  // reads s[4:36]: windows one element in
			{8, 24, Reflect, 4, word},  // reads s[8:40]
			{4, 5, Wrap, 4, no},        // 20-byte input rows
			{8, 24, Edge, 3, word},     // 240-byte rows
			{8, 40, Edge, 3, no},       // 368 bytes: past endsWordsEdgeMaxWidth
			{4, 100, Wrap, 7, word},    // 456 bytes
			{4, 200, Wrap, 7, word},    // 856 bytes
			{8, 500, Reflect, 3, word}, // 4048 bytes
			{4, 1030, Wrap, 7, no},     // 4176 bytes: past endsWrapMaxWidth
			{8, 520, Reflect, 3, no},   // 4208 bytes
			{4, 24, Constant, 6, no},   // the rows kernels
			{4, 24, Wrap, 3, end},      // 12-byte pads: the 16-byte ends kernel
			{1, 4000, Wrap, 16, end},   // 4032 bytes
			{1, 4090, Wrap, 16, no},    // 4122 bytes: past endsWrapMaxWidth
			{4, 120, Reflect, 3, end},  // 504 bytes
			{4, 130, Reflect, 3, no},   // 544 bytes: past endsMaxWidth
			{8, 24, Wrap, 5, no},       // 40-byte pads
		} {
			shape := []int{3, min(c.hw, 24), c.hw}
			spec := Spec{Mode: c.mode, Before: []int{0, c.pad, c.pad}, After: []int{0, c.pad, c.pad}}
			p, err := newExecPlan(shape, spec, Workers(1))
			if err != nil {
				t.Fatal(err)
			}
			in := randomBytes(r, c.es*prod(shape))
			want, _, err := refPad(in, c.es, shape, spec, nil)
			if err != nil {
				t.Fatal(err)
			}
			calls = [2]int{}
			dst := make([]byte, len(want))
			if err := p.RunBytes(dst, in, c.es, nil); err != nil || !bytes.Equal(dst, want) {
				t.Errorf("%v %v, %d-byte elements: output differs from the reference (%v)", shape, spec, c.es, err)
			}
			if (calls[0] > 0) != (c.take == end) || (calls[1] > 0) != (c.take == word) {
				t.Errorf("%v %v, %d-byte elements: %d calls of the ends kernel and %d of the word ends kernel, want %v", shape, spec, c.es, calls[0], calls[1], []string{"neither", "ends", "word ends"}[c.take])
			}
		}
	})
}
