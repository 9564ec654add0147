//go:build amd64 && unix && gc && !purego && !noasm

package pad

// Tests and benchmarks of the shuffle kernel (KERNELS.md item 7) against
// its Go version: every width and mid up to 128 with random tables,
// canaries around dst and src, gaps between rows and planes, broadcast
// src rows; then the same kernel with its buffers against PROT_NONE pages
// (its masked loads and stores must not touch them). FuzzKernels fuzzes it
// too.

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/sys/unix"
)

// shufCase is one call of the kernel.
type shufCase struct {
	rows, dstStride, srcStride, width, mid int
	pl                                     planes
	tab                                    *shuffleTable
	pat                                    *[32]byte
	rowIdx                                 []int32 // the src row of each row, or nil
}

func (c *shufCase) String() string {
	return fmt.Sprintf("rows %d dstStride %d srcStride %d width %d mid %d planes %+v rowIdx %v", c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.pl, c.rowIdx)
}

// srcRows is the number of src rows a plane reads from.
func (c *shufCase) srcRows() int {
	if c.rowIdx == nil {
		return c.rows
	}
	return int(slices.Max(c.rowIdx)) + 1
}

func (c *shufCase) lens() (dst, src int) {
	return (c.pl.n-1)*c.pl.dst + (c.rows-1)*c.dstStride + c.width, (c.pl.n-1)*c.pl.src + (c.srcRows()-1)*c.srcStride + c.mid
}

func (c *shufCase) asm(ks asmKernels, dst, src []byte) {
	list, run0, run1 := listArgs(c.rowIdx)
	ks.rowsShuffle(&dst[0], &src[0], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.tab.bytes(), c.pat, c.pl.n, c.pl.dst, c.pl.src, list, run0, run1, shuffleLoadLimit(src, c.mid))
}

// tableCall is one call of a table kernel (shufCase, wideCase).
type tableCall interface {
	String() string
	lens() (dst, src int)
	goVersion(dst, src []byte)
	asm(ks asmKernels, dst, src []byte)
}

// checkCanaries runs c on buffers between canaries, at random offsets, and
// compares dst with the Go version; src must not change.
func checkCanaries(t *testing.T, r *rand.Rand, ks asmKernels, c tableCall, seed byte) {
	t.Helper()
	dn, sn := c.lens()
	dstOff, srcOff := r.IntN(64), r.IntN(64)
	dst, checkDst := guarded(dn, dstOff, seed)
	src, checkSrc := guarded(sn, srcOff, seed+1)
	copy(src, randomBytes(r, sn))
	want := bytes.Clone(dst)
	c.goVersion(want, src)
	srcKeep := bytes.Clone(src)
	c.asm(ks, dst, src)
	what := fmt.Sprintf("%v (dst offset %d, src offset %d)", c, dstOff, srcOff)
	checkDst(t, what)
	checkSrc(t, what)
	if !bytes.Equal(src, srcKeep) {
		t.Fatalf("%s: src changed", what)
	}
	if i := firstDiff(dst, want); i >= 0 {
		t.Fatalf("%s: dst differs from the Go version from byte %d:\n got %x\nwant %x", what, i, dst, want)
	}
}

// guardPages returns two regions of pages bytes each, between PROT_NONE
// pages, and a function that unmaps them.
func guardPages(t *testing.T, pages int) (src, dst []byte, unmap func()) {
	page := unix.Getpagesize()
	var mems [][]byte
	region := func() []byte {
		mem, err := unix.Mmap(-1, 0, (pages+2)*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
		if err != nil {
			t.Fatal(err)
		}
		mems = append(mems, mem)
		if err := unix.Mprotect(mem[:page], unix.PROT_NONE); err != nil {
			t.Fatal(err)
		}
		if err := unix.Mprotect(mem[(pages+1)*page:], unix.PROT_NONE); err != nil {
			t.Fatal(err)
		}
		return mem[page : (pages+1)*page]
	}
	src, dst = region(), region()
	return src, dst, func() {
		for _, m := range mems {
			unix.Munmap(m)
		}
	}
}

// checkGuarded runs c with src (pos bit 0) and dst (bit 1) starting right
// after a guard page or ending right at one, and reports false if the case
// does not fit the regions.
func checkGuarded(t *testing.T, r *rand.Rand, ks asmKernels, c tableCall, sdata, ddata []byte, pos int) bool {
	t.Helper()
	dn, sn := c.lens()
	if dn > len(ddata) || sn > len(sdata) {
		return false
	}
	so, do := 0, 0
	if pos&1 != 0 {
		so = len(sdata) - sn
	}
	if pos&2 != 0 {
		do = len(ddata) - dn
	}
	src, dst := sdata[so:so+sn], ddata[do:do+dn]
	copy(src, randomBytes(r, sn))
	copy(dst, randomBytes(r, dn))
	want := bytes.Clone(dst)
	c.goVersion(want, src)
	c.asm(ks, dst, src)
	if !bytes.Equal(dst, want) {
		t.Fatalf("%v at guard position %d: wrong result", c, pos)
	}
	return true
}

func (c *shufCase) goVersion(dst, src []byte) {
	for p := range c.pl.n {
		rowsShuffleGo(dst[p*c.pl.dst:], src[p*c.pl.src:], c.rows, c.dstStride, c.srcStride, c.width, c.mid, c.tab, c.pat, c.rowIdx)
	}
}

// randomShufCase draws a table (indices below mid, some bytes the value;
// in one case of three within the windows of the kernel's one-permutation
// path, in another one byte out of them) and a geometry.
func randomShufCase(r *rand.Rand, width, mid int) *shufCase {
	c := &shufCase{width: width, mid: mid, tab: new(shuffleTable), pat: patternOf(randomBytes(r, 1+r.IntN(16)))}
	valueEvery := []int{0, 2, 8}[r.IntN(3)] // 0: every byte from src
	for i := 0; i < width; i++ {
		if valueEvery == 0 || r.IntN(valueEvery) != 0 {
			c.tab.idx[i] = byte(r.IntN(mid))
			c.tab.take[i/64] |= 1 << (i % 64)
		} else {
			c.tab.idx[i] = byte(r.IntN(256)) // ignored
		}
	}
	switch r.IntN(3) {
	case 1: // the kernel's one-permutation path
		windowTable(c.tab, width, mid)
	case 2: // one byte out of it, which turns the path off
		windowTable(c.tab, width, mid)
		if i := r.IntN(width); mid > 64 && width > 64 {
			c.tab.take[i/64] |= 1 << (i % 64)
			if i < 64 {
				c.tab.idx[i] = byte(64 + r.IntN(mid-64))
			} else {
				c.tab.idx[i] = byte(r.IntN(mid - 64))
			}
		}
	}
	c.rows = 1 + r.IntN(3)
	c.dstStride = width + []int{0, 0, 1, 5, 64}[r.IntN(5)]
	switch r.IntN(4) {
	case 0:
		c.srcStride = 0 // one src row for every dst row (edge padding)
	default:
		c.srcStride = mid + []int{0, 3, 64}[r.IntN(3)]
	}
	if r.IntN(3) == 0 { // a list of src rows, as a plane's pad rows repeat or mirror rows
		// Up to 23 rows: more than 8 listed rows before or after the run
		// take the kernel's path that loads the list (loadListOffsets).
		c.rows = 1 + r.IntN([]int{6, 24}[r.IntN(2)])
		c.rowIdx = make([]int32, c.rows)
		for t := range c.rowIdx {
			c.rowIdx[t] = int32(r.IntN(4))
		}
		if r.IntN(2) == 0 { // the middle rows of a plane
			withRun(c.rowIdx, r.IntN(c.rows), r.IntN(c.rows+1), r.IntN(3))
		}
	}
	c.pl = planes{n: 1 + r.IntN(3)}
	c.pl.dst = (c.rows-1)*c.dstStride + width + r.IntN(9)
	c.pl.src = (c.srcRows()-1)*c.srcStride + mid + r.IntN(9)
	return c
}

func TestRowsShuffleKernel(t *testing.T) {
	ks := tableKernelsOrSkip(t)
	r := rand.New(rand.NewPCG(7, 7))
	calls := 0
	for width := 1; width <= shuffleMax; width++ {
		for mid := 1; mid <= shuffleMax; mid++ {
			checkCanaries(t, r, ks, randomShufCase(r, width, mid), byte(width))
			calls++
		}
	}
	t.Logf("%d calls", calls)
}

// TestRowsShuffleGuard: src and dst starting right after and ending right
// at PROT_NONE pages, for the widths and mids around the kernel's vector
// boundaries.
func TestRowsShuffleGuard(t *testing.T) {
	ks := tableKernelsOrSkip(t)
	sizes := []int{1, 2, 3, 7, 8, 16, 17, 31, 32, 33, 56, 63, 64, 65, 80, 81, 96, 97, 112, 116, 127, 128}
	guardSweep(t, ks, rand.New(rand.NewPCG(8, 8)), sizes, func(r *rand.Rand, width, mid int) tableCall {
		return randomShufCase(r, width, mid)
	})
}

// guardSweep runs a call drawn by draw for every width and mid of sizes
// (draw returns nil for those its kernel does not take) at each of
// checkGuarded's four positions against PROT_NONE pages, and returns the
// number of calls.
func guardSweep(t *testing.T, ks asmKernels, r *rand.Rand, sizes []int, draw func(r *rand.Rand, width, mid int) tableCall) int {
	sdata, ddata, unmap := guardPages(t, 1)
	defer unmap()
	calls := 0
	for _, width := range sizes {
		for _, mid := range sizes {
			for pos := range 4 {
				c := draw(r, width, mid)
				if c == nil {
					break
				}
				if checkGuarded(t, r, ks, c, sdata, ddata, pos) {
					calls++
				}
			}
		}
	}
	t.Logf("%d guarded calls", calls)
	return calls
}

// tableKernelsOrSkip returns the AVX-512 kernels if they include the
// table kernels (shuffle, wide, aligned: all need VBMI, and ifCPU sets
// them together).
func tableKernelsOrSkip(t testing.TB) asmKernels {
	return kernelSetOrSkip(t, func(ks *asmKernels) bool { return ks.rowsShuffle != nil }, "the CPU has no AVX-512 VBMI: no table kernels")
}

// BenchmarkRowsShuffle: the shuffle kernel against its Go version and the
// rows kernels on the narrow rows of suite cases c (64-byte edge rows of
// 14 floats) and g (116-byte reflect rows of 112 bytes), in cache and
// from L2 (many planes), with dst rows aligned to 64 bytes or not.
func BenchmarkRowsShuffle(b *testing.B) {
	ks := tableKernelsOrSkip(b)
	for _, g := range []struct {
		name                        string
		planes, rows, mid, width, K int
	}{{"c-plane", 1, 14, 56, 64, 4}, {"c-256planes", 256, 14, 56, 64, 4}, {"g-plane", 1, 112, 112, 116, 1}, {"g-32planes", 32, 112, 112, 116, 1}} {
		pad := (g.width - g.mid) / 2
		dst := benchBytes(g.planes*g.rows*g.width + 64)
		src := benchBytes(g.planes * g.rows * g.mid)
		var tab shuffleTable
		for i := 0; i < g.width; i++ { // edge padding
			tab.idx[i] = byte(min(max(i-pad, 0), g.mid-1))
			tab.take[i/64] |= 1 << (i % 64)
		}
		var pat [32]byte
		rows := g.planes * g.rows
		for _, off := range []int{0, 4} {
			d := dst[off:]
			pre := fmt.Sprintf("%s/dstOff=%d/", g.name, off)
			b.Run(pre+"kernel=Go", func(b *testing.B) {
				b.SetBytes(int64(rows * g.width))
				for i := 0; i < b.N; i++ {
					rowsShuffleGo(d, src, rows, g.width, g.mid, g.width, g.mid, &tab, &pat, nil)
				}
			})
			b.Run(pre+"kernel=rowsEdgeAVX512", func(b *testing.B) {
				b.SetBytes(int64(rows * g.width))
				for i := 0; i < b.N; i++ {
					ks.rowsEdge[sizeIndex(g.K)](&d[0], &src[0], rows, g.width, g.mid, pad, g.mid, pad)
				}
			})
			b.Run(pre+"kernel=rowsShuffleAVX512", func(b *testing.B) {
				b.SetBytes(int64(rows * g.width))
				for i := 0; i < b.N; i++ {
					ks.rowsShuffle(&d[0], &src[0], rows, g.width, g.mid, g.width, g.mid, tab.bytes(), &pat, 1, 0, 0, nil, 0, 0, shuffleLoadLimit(src, g.mid))
				}
			})
			if g.width%64 == 0 {
				continue // the lines kernel is for rows that straddle lines
			}
			b.Run(pre+"kernel=rowsLinesAVX512", func(b *testing.B) {
				// The rows as one plane's middle, with the table of this
				// placement's phases (the plan builds those of aligned
				// buffers), through the wrapper that makes the blocks at
				// the input's end in Go.
				rowSrc := tableSources(&tab, g.width)
				t := linesTableOf(rowSrc, g.mid, linesPeriod(g.width, g.mid), addrPhase(d), addrPhase(src))
				if t == nil {
					b.Fatal("no lines table")
				}
				b.SetBytes(int64(rows * g.width))
				for i := 0; i < b.N; i++ {
					linesMiddle(&ks, d, src, src, t, rows*g.width, &linesSet{width: g.width, srcStride: g.mid, mid: g.mid, rowSrc: rowSrc})
				}
			})
		}
	}
}

// TestPlaneShuffle runs plans of small planes (at most 128 bytes in and out,
// which the shuffle kernel makes as one row each: planeTable) in every mode,
// with crops, interior padding and values, element sizes 1 to 8, at every
// level this CPU has, with dst and src against guard pages; compared with
// the reference. A spy on the kernel checks that such planes take it.
func TestPlaneShuffle(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(51, 52))
	runRandomPlans(t, r, levels, 400, 5, func() ([]int, Spec, int, []byte) {
		es := 1 << r.IntN(4)
		h, w := 1+r.IntN(8), 1+r.IntN(10)
		mode := Mode(r.IntN(int(Symmetric) + 1))
		pad := func(n int) int {
			lim := n
			if mode == Reflect {
				lim = n - 1
			}
			return r.IntN(min(lim, 3) + 1)
		}
		tp, bp, lp, rp := pad(h), pad(h), pad(w), pad(w)
		if r.IntN(5) == 0 && w > 2 { // a crop
			lp = -1
		}
		shape := []int{1 + r.IntN(3), 1 + r.IntN(40), h, w}
		spec := Spec{Mode: mode, Before: []int{0, 0, tp, lp}, After: []int{0, 0, bp, rp}}
		if mode == Constant && r.IntN(4) == 0 {
			spec.Interior = []int{0, 0, r.IntN(2), r.IntN(2)}
		}
		var value []byte
		if mode == Constant && r.IntN(2) == 0 {
			value = randomBytes(r, es)
		}
		return shape, spec, es, value
	}, func(p *Plan, es int) bool { return p.tablesFor(es).plane != nil }, "have a plane table")

	// A spy: uint8 7x7 planes edge-padded to 9x9 are one kernel row each.
	ks := kernelsInUse()
	if ks == nil || ks.rowsShuffle == nil {
		t.Skip("the level in use has no shuffle kernel (AVX-512 VBMI)")
	}
	var calls, rows int
	kernel := ks.rowsShuffle
	setForTest(t, &ks.rowsShuffle, func(dst, src *byte, n, dstStride, srcStride, width, mid int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int, srcLimit uintptr) {
		calls, rows = calls+1, rows+n*planes
		kernel(dst, src, n, dstStride, srcStride, width, mid, tab, pat, planes, dstPlane, srcPlane, rowIdx, run0, run1, srcLimit)
	})
	shape, spec := []int{1, 512, 7, 7}, Spec{Mode: Edge, Before: []int{0, 0, 1, 1}, After: []int{0, 0, 1, 1}}
	p, err := newExecPlan(shape, spec)
	if err != nil {
		t.Fatal(err)
	}
	in := randomBytes(r, prod(shape))
	want, _, _ := refPad(in, 1, shape, spec, nil)
	dst := make([]byte, len(want))
	if err := p.RunBytes(dst, in, 1, nil); err != nil || !bytes.Equal(dst, want) {
		t.Fatalf("%v %v: output differs from the reference (%v)", shape, spec, err)
	}
	if calls != 1 || rows != 512 {
		t.Errorf("%v %v: %d shuffle kernel calls of %d rows, want one of 512 (a plane a row)", shape, spec, calls, rows)
	}
}

// TestRowGroups runs random plans of rows of 17 to 48 bytes out (rank 2
// and 3, every mode, some cropped, with and without a value) at every
// level this CPU has, against guard pages and the reference. Spies check
// that with VBMI uint8 [1000, 19] edge-padded to [1000, 22] takes the
// shuffle kernel five rows a row (200 rows of 110 bytes in one call), 103
// such rows one at a time (rowGroupsSplitMin), and that float32 rows of 24
// bytes take no group table (rowGroupOf).
func TestRowGroups(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(131, 132))
	runRandomPlans(t, r, levels, 300, 5, func() ([]int, Spec, int, []byte) {
		es := 1 << r.IntN(4)
		return drawNarrowRows(r, max(1, (17+r.IntN(32))/es-r.IntN(3)), es)
	}, func(p *Plan, es int) bool { return p.tablesFor(es).rowGroups != nil }, "have a row group table")

	vbmi := kernelsAt(levelAVX512)
	if vbmi == nil || !vbmi.supported || vbmi.rowsShuffle == nil {
		t.Skip("the CPU has no AVX-512 VBMI: no shuffle kernel")
	}
	calls := recordShuffleCalls(t, vbmi)
	edge := func(before, after int) Spec {
		return Spec{Mode: Edge, Before: []int{0, before}, After: []int{0, after}}
	}
	for _, c := range []struct {
		shape []int
		spec  Spec
		size  int
		want  []shuffleCall
	}{
		{[]int{1000, 19}, edge(1, 2), 1, []shuffleCall{{200, 110, false}}},
		{[]int{1003, 19}, edge(1, 2), 1, []shuffleCall{{200, 110, false}, {3, 22, false}}}, // the rows past the last group one a row
		{[]int{1000, 5}, edge(1, 1), 4, []shuffleCall{{250, 112, false}}},                  // float32 rows of 28 bytes, four a row
		{[]int{100, 19}, edge(1, 2), 1, []shuffleCall{{20, 110, false}}},                   // no rows over
		{[]int{103, 19}, edge(1, 2), 1, []shuffleCall{{103, 22, false}}},                   // rows over, fewer than rowGroupsSplitMin: one at a time
	} {
		*calls = nil
		checkSizeAtLevel(t, levelAVX512, c.shape, c.spec, c.size, randomBytes(r, c.size*prod(c.shape)), nil)
		if !slices.Equal(*calls, c.want) {
			t.Errorf("AVX-512, %v %v size %d: shuffle kernel calls (rows, width, listed) %v, want %v", c.shape, c.spec, c.size, *calls, c.want)
		}
	}
	// No groups of float32 rows of 24 bytes, nor of rows of 32 bytes.
	for _, shape := range [][]int{{1000, 4}, {1000, 6}} {
		p, err := newExecPlan(shape, edge(1, 1))
		if err != nil {
			t.Fatal(err)
		}
		if p.tablesFor(4).rowGroups != nil {
			t.Errorf("%v %v size 4: a row group table", shape, edge(1, 1))
		}
	}
}

// TestOnePlane runs random matrices of up to onePlaneMaxRows+20 rows of 1
// to 128 bytes padded on both axes (every mode, some cropped, with and
// without a value) at every level this CPU has, against guard pages and
// the reference. Spies check that a matrix padded at both ends of its row
// axis, of at most onePlaneMaxRows rows, is one call of the shuffle kernel
// over its row list (onePlane), with VBMI and at the AVX2 level, and that
// one padded at one end, or taller, is not.
func TestOnePlane(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(151, 152))
	pad := func(n int) int { // a crop of 1 where 3 or more are left
		if n >= 3 && r.IntN(6) == 0 {
			return -1
		}
		return r.IntN(5)
	}
	share := math.MaxInt // no output is one plane at the level in use
	if ks := kernelsInUse(); ks != nil && ks.rowsShuffle != nil {
		share = 6
	} else if ks != nil && ks.rowsShuffleNarrow != nil {
		share = 12 // rows of up to 32 bytes
	}
	runRandomPlans(t, r, levels, 400, share, func() ([]int, Spec, int, []byte) {
		es := 1 << r.IntN(4)
		shape := []int{1 + r.IntN(onePlaneMaxRows+20), 1 + r.IntN(128/es)}
		spec := Spec{Mode: Mode(r.IntN(int(Symmetric) + 1))}
		for _, n := range shape {
			spec.Before, spec.After = append(spec.Before, pad(n)), append(spec.After, pad(n))
		}
		if r.IntN(3) == 0 {
			shape = append([]int{1}, shape...)
			spec.Before, spec.After = append([]int{0}, spec.Before...), append([]int{0}, spec.After...)
		}
		var value []byte
		if spec.Mode == Constant && r.IntN(2) == 0 {
			value = randomBytes(r, es)
		}
		return shape, spec, es, value
	}, func(p *Plan, es int) bool { return onePlaneFits(p.levels, p.tablesFor(es)) }, "are one plane")

	// At the AVX2 level, rows of up to 32 bytes by the narrow kernel.
	if avx2 := kernelsAt(levelAVX2); avx2 != nil && avx2.supported && avx2.rowsShuffleNarrow != nil {
		calls := recordNarrowCalls(t, avx2)
		for _, c := range []struct {
			shape  []int
			before int
			want   []shuffleCall // the one plane's one call, or nil: none listed
		}{
			{[]int{20, 20}, 1, []shuffleCall{{22, 0, true}}},
			{[]int{20, 20}, 0, nil},  // padded at one end: the executor's calls
			{[]int{100, 20}, 1, nil}, // past onePlaneMaxRows
		} {
			*calls = nil
			spec := Spec{Mode: Reflect, Before: []int{c.before, 1}, After: []int{1, 1}}
			checkSizeAtLevel(t, levelAVX2, c.shape, spec, 1, randomBytes(r, prod(c.shape)), nil)
			if c.want == nil && !slices.ContainsFunc(*calls, func(c shuffleCall) bool { return c.listed }) {
				continue
			}
			if !slices.Equal(*calls, c.want) {
				t.Errorf("AVX2, %v %v: narrow kernel calls (rows, -, listed) %v, want %v", c.shape, spec, *calls, c.want)
			}
		}
	}

	vbmi := kernelsAt(levelAVX512)
	if vbmi == nil || !vbmi.supported || vbmi.rowsShuffle == nil {
		t.Skip("the CPU has no AVX-512 VBMI: no shuffle kernel")
	}
	calls := recordShuffleCalls(t, vbmi)
	for _, c := range []struct {
		shape         []int
		mode          Mode
		before, after []int
		size          int
		want          []shuffleCall
	}{
		{[]int{20, 20}, Reflect, []int{1, 1}, []int{1, 1}, 1, []shuffleCall{{22, 22, true}}},
		{[]int{1, 20, 20}, Edge, []int{0, 1, 1}, []int{0, 1, 1}, 4, []shuffleCall{{22, 88, true}}},
		{[]int{78, 6}, Wrap, []int{1, 2}, []int{1, 2}, 2, []shuffleCall{{80, 20, true}}}, // onePlaneMaxRows
		{[]int{79, 6}, Wrap, []int{1, 2}, []int{1, 2}, 2, nil},                           // a row more
		{[]int{48, 10}, Symmetric, []int{0, 1}, []int{1, 1}, 1, nil},                     // one end
	} {
		*calls = nil
		spec := Spec{Mode: c.mode, Before: c.before, After: c.after}
		checkSizeAtLevel(t, levelAVX512, c.shape, spec, c.size, randomBytes(r, c.size*prod(c.shape)), nil)
		// Not one plane: the executor's calls, none over a row list.
		if c.want == nil && !slices.ContainsFunc(*calls, func(c shuffleCall) bool { return c.listed }) {
			continue
		}
		if !slices.Equal(*calls, c.want) {
			t.Errorf("AVX-512, %v %v size %d: shuffle kernel calls (rows, width, listed) %v, want %v", c.shape, spec, c.size, *calls, c.want)
		}
	}
}

// TestPlanesByGroups runs random plans of planes of 32 to 300 rows of 17
// to 48 bytes out with pad rows (every mode, some cropped, with and
// without a value) at every level this CPU has, against guard pages and
// the reference. Spies check that with VBMI a plane's run of rows goes by
// groups, the rows before and after them by their list (planesByGroups),
// and that runs of fewer than rowGroupsRunMin rows, and calls of fewer
// than rowGroupsCallMin rows of runs, keep their list.
func TestPlanesByGroups(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(133, 134))
	vbmi := kernelsAt(levelAVX512)
	hasVBMI := vbmi != nil && vbmi.supported && vbmi.rowsShuffle != nil
	calls := new([]shuffleCall)
	if hasVBMI {
		calls = recordShuffleCalls(t, vbmi)
	}
	runRandomPlans(t, r, levels, 200, 5, func() ([]int, Spec, int, []byte) {
		es := 1 << r.IntN(4)
		w := max(1, (17+r.IntN(32))/es-r.IntN(3))
		pad := func() int { return r.IntN(4) }
		spec := Spec{Mode: Mode(r.IntN(int(Symmetric) + 1)), Before: []int{0, pad(), pad()}, After: []int{0, pad(), pad()}}
		if r.IntN(5) == 0 {
			spec.Before[1] = -1 - r.IntN(2)
		}
		if w > 1 && r.IntN(5) == 0 {
			spec.Before[2] = -1
		}
		var value []byte
		if spec.Mode == Constant && r.IntN(2) == 0 {
			value = randomBytes(r, es)
		}
		return []int{1 + r.IntN(60), 32 + r.IntN(269), w}, spec, es, value
	}, func(p *Plan, es int) bool {
		return p.tablesFor(es).rowGroups != nil && p.levels[len(p.levels)-2].list != nil
	}, "have a row group table and a row list")

	if !hasVBMI {
		t.Skip("the CPU has no AVX-512 VBMI: no shuffle kernel")
	}
	// Listed calls right after a call of groups (rows wider than 48
	// bytes, not listed) at the VBMI level: planesByGroups's.
	byGroups := 0
	for i, c := range *calls {
		if i > 0 && c.listed && !(*calls)[i-1].listed && (*calls)[i-1].width > 48 {
			byGroups++
		}
	}
	if min := 50; byGroups < min && !testing.Short() {
		t.Errorf("%d listed calls after groups in the random plans, want at least %d", byGroups, min)
	}
	t.Logf("%d listed calls after groups in the random plans", byGroups)
	// uint8 rows of 19 bytes padded to 22 go five to a group of 110 bytes.
	for _, c := range []struct {
		shape         []int
		mode          Mode
		before, after int // pad rows
		want          []shuffleCall
	}{
		{[]int{11, 100, 19}, Reflect, 2, 1, []shuffleCall{{20, 110, false}, {2, 22, true}, {1, 22, true}}},
		{[]int{11, 101, 19}, Reflect, 2, 1, []shuffleCall{{20, 110, false}, {2, 22, true}, {2, 22, true}}}, // the run's last row in the list after it
		{[]int{11, 100, 19}, Edge, 0, 1, []shuffleCall{{20, 110, false}, {1, 22, true}}},                   // no rows before the run
		{[]int{40, 31, 19}, Wrap, 2, 1, []shuffleCall{{34, 22, true}}},                                     // a run of 31 rows keeps its list
		{[]int{10, 100, 19}, Reflect, 2, 1, []shuffleCall{{103, 22, true}}},                                // and planes of 1000 rows of runs
	} {
		*calls = nil
		spec := Spec{Mode: c.mode, Before: []int{0, c.before, 1}, After: []int{0, c.after, 2}}
		checkSizeAtLevel(t, levelAVX512, c.shape, spec, 1, randomBytes(r, prod(c.shape)), nil)
		if !slices.Equal(*calls, c.want) {
			t.Errorf("AVX-512, %v %v: shuffle kernel calls (rows, width, listed) %v, want %v", c.shape, spec, *calls, c.want)
		}
	}
}

// shuffleCall is one call of the VBMI shuffle kernel as a spy saw it:
// rows of width bytes, listed when it had a row list.
type shuffleCall struct {
	rows, width int
	listed      bool
}

// recordShuffleCalls records the calls of ks's shuffle kernel for the rest
// of the test.
func recordShuffleCalls(t *testing.T, ks *asmKernels) *[]shuffleCall {
	calls, kernel := new([]shuffleCall), ks.rowsShuffle
	setForTest(t, &ks.rowsShuffle, func(dst, src *byte, rows, dstStride, srcStride, width, mid int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int, srcLimit uintptr) {
		*calls = append(*calls, shuffleCall{rows, width, rowIdx != nil})
		kernel(dst, src, rows, dstStride, srcStride, width, mid, tab, pat, planes, dstPlane, srcPlane, rowIdx, run0, run1, srcLimit)
	})
	return calls
}

// recordNarrowCalls records the calls of ks's narrow shuffle kernel for
// the rest of the test (the kernel takes no width: 0).
func recordNarrowCalls(t *testing.T, ks *asmKernels) *[]shuffleCall {
	calls, kernel := new([]shuffleCall), ks.rowsShuffleNarrow
	setForTest(t, &ks.rowsShuffleNarrow, func(dst, src *byte, rows, dstStride, srcStride int, tab *[224]byte, pat *[32]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int) {
		*calls = append(*calls, shuffleCall{rows, 0, rowIdx != nil})
		kernel(dst, src, rows, dstStride, srcStride, tab, pat, planes, dstPlane, srcPlane, rowIdx, run0, run1)
	})
	return calls
}
