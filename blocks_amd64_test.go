//go:build amd64 && unix && gc && !purego && !noasm

package pad

// Tests of the blocks kernel (planeBlocksAVX2) against its Go version:
// random tables (any index bytes, windows anywhere in the input plane,
// blocks overlapping the one before) with and without a value's pattern
// over input planes of 16 to blocksLargeMax bytes, planes with gaps and
// broadcast input planes, with dst and src against PROT_NONE pages; a
// fuzz target; and plans whose planes take the kernel, at every level,
// against the reference (chunks_test.go checks the tables).

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"

	"github.com/tensorpad/pad/internal/suite"
)

type blocksKernelFunc = func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, blocks, batch int, pat *[32]byte)

// blocksKernel returns the blocks kernel, or skips t.
func blocksKernel(t testing.TB) blocksKernelFunc {
	ks := kernelsAt(levelAVX2)
	if ks == nil || !ks.supported || ks.planeBlocks == nil {
		t.Skip("the CPU has no AVX2: no blocks kernel")
	}
	return ks.planeBlocks
}

// randomBlockTable draws a kernel table: any index bytes (VPSHUFB reads
// bits 7 and 0-3), windows anywhere in the input plane, blocks that
// overlap the one before.
func randomBlockTable(r *rand.Rand) *blockTable {
	c := 1 + r.IntN(blocksMax)
	if r.IntN(4) == 0 {
		c = 1 + r.IntN(blocksLargeMax/32) // a large plane's
	}
	t := &blockTable{width: 32*(c-1) + 1 + r.IntN(32), inLen: 16 + r.IntN(100), ent: make([]blockEntry, c)}
	t.width = max(t.width, 32)
	switch r.IntN(4) {
	case 0:
		t.inLen = []int{16, 17, 31, 32, 33, 64, 255, 256, blocksInMax, blocksLargeMax}[r.IntN(10)]
	case 1:
		t.inLen = 16 + r.IntN(blocksInMax-15)
	}
	for b := range t.ent {
		e := &t.ent[b]
		e.lo, e.hi = int64(r.IntN(t.inLen-15)), int64(r.IntN(t.inLen-15))
		e.at = int64(min(32*b, t.width-32))
		switch {
		case b > 0 && r.IntN(3) == 0:
			e.at = max(0, e.at-int64(r.IntN(32))) // overlapping the block before
		case r.IntN(4) == 0:
			e.at = int64(r.IntN(t.width - 31)) // anywhere, as first parts and a last block made again put them
		}
		for i := range 32 {
			e.a[i], e.b[i], e.v[i] = byte(r.Uint32()), byte(r.Uint32()), byte(r.Uint32())
		}
	}
	return t
}

// checkBlocksGuarded runs the kernel on planes of table tb against guard
// pages (checkPlanesGuarded), in batches of 1 to all of its planes, with
// no value half the time and else a random pattern.
func checkBlocksGuarded(t *testing.T, r *rand.Rand, a *guardArena, kernel blocksKernelFunc, tb *blockTable, end bool) {
	var pat *[32]byte
	if r.IntN(2) == 0 {
		pat = (*[32]byte)(randomBytes(r, 32))
	}
	checkPlanesGuarded(t, r, a, len(tb.ent), tb.width, tb.inLen, end,
		func(dst, src []byte, pl planes) { planeBlocksGo(dst, src, pl, tb, pat) },
		func(dp, sp *byte, pl planes) {
			kernel(dp, sp, pl.n, pl.dst, pl.src, &tb.ent[0].a[0], len(tb.ent), 1+r.IntN(pl.n+1), pat)
		})
}

func TestPlaneBlocksKernel(t *testing.T) {
	kernel := blocksKernel(t)
	if s := unsafe.Sizeof(blockEntry{}); s != 128 {
		t.Fatalf("blockEntry is %d bytes, the kernel reads 128", s)
	}
	a := newGuardArena(t, 2, 48<<10) // 9 planes of blocksLargeMax bytes and gaps
	r := rand.New(rand.NewPCG(71, 72))
	calls := 3000
	if testing.Short() {
		calls = 500
	}
	for i := range calls {
		checkBlocksGuarded(t, r, a, kernel, randomBlockTable(r), i%2 == 0)
	}
}

func FuzzPlaneBlocks(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, x, y uint64) {
		kernel := blocksKernel(t)
		a := newGuardArena(t, 2, 48<<10) // 9 planes of blocksLargeMax bytes and gaps
		r := rand.New(rand.NewPCG(x, y))
		checkBlocksGuarded(t, r, a, kernel, randomBlockTable(r), x%2 == 0)
	})
}

// TestPlaneBlocks runs random plans of small and tall planes (every mode,
// some cropped, pads up to twice the axis and more, some on the axis of
// the planes too) at every level this CPU
// has, against guard pages and the reference. A spy checks that at the
// AVX2 level uint8 7x7 planes edge-padded by 1 take the kernel, 504 of the
// 512 planes in groups of 12 (blockGroupOf) in one call and the other 8 in
// another, and that without the tables (planeBlocksOn) they do not;
// constant-padded ones likewise, with the value's pattern where it is not
// zero; and that with VBMI the planes of tables marked byAVX2 take it
// (value groups of tiny planes too), and those marked avx2Fallback where
// that level's kernels decline them.
func TestPlaneBlocks(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(73, 74))
	runRandomPlans(t, r, levels, 400, 5, func() ([]int, Spec, int, []byte) {
		h, w, n := 2+r.IntN(15), 2+r.IntN(15), 1+r.IntN(60)
		if r.IntN(4) == 0 {
			h, n = 20+r.IntN(200), 1+r.IntN(8) // tall planes, up to blocksLargeMax bytes out
		}
		pad := func() int { return r.IntN(5) }
		tp, bp, lp, rp := pad(), pad(), pad(), pad()
		if r.IntN(5) == 0 {
			lp = -1
		}
		spec := Spec{Mode: Mode(r.IntN(int(Symmetric) + 1)), Before: []int{0, 0, tp, lp}, After: []int{0, 0, bp, rp}}
		if n > 1 && r.IntN(4) == 0 {
			spec.Before[1], spec.After[1] = r.IntN(3), r.IntN(3) // runs of n planes (segmentRunMax)
		}
		es := 1 << r.IntN(3)
		var value []byte
		if spec.Mode == Constant && r.IntN(2) == 0 {
			value = randomBytes(r, es)
		}
		return []int{1 + r.IntN(2), n, h, w}, spec, es, value
	}, func(p *Plan, es int) bool { return p.tablesFor(es).blocks != nil }, "have a blocks table")

	ks := kernelsAt(levelAVX2)
	if ks == nil || !ks.supported {
		t.Skip("the CPU has no AVX2: no blocks kernel")
	}
	var calls [][4]int // planes, dstPlane, batch and pat[0] (-1: nil) of each call
	kernel := ks.planeBlocks
	setForTest(t, &ks.planeBlocks, func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, blocks, batch int, pat *[32]byte) {
		p := -1
		if pat != nil {
			p = int(pat[0])
		}
		calls = append(calls, [4]int{planes, dstPlane, batch, p})
		kernel(dst, src, planes, dstPlane, srcPlane, tab, blocks, batch, pat)
	})
	shape := []int{1, 512, 7, 7}
	in := randomBytes(r, prod(shape))
	for _, c := range []struct {
		mode  Mode
		value byte
	}{{Edge, 0}, {Constant, 0x5C}, {Constant, 0}} {
		mode, value := c.mode, []byte{c.value}
		spec := Spec{Mode: mode, Before: []int{0, 0, 1, 1}, After: []int{0, 0, 1, 1}}
		want, _, _ := refPad(in, 1, shape, spec, value)
		for _, on := range []bool{true, false} {
			calls = nil
			dst := make([]byte, len(want))
			withLevel(levelAVX2, func() {
				withValue(&planeBlocksOn, on, func() { // the tables are built at the first run
					p, err := newExecPlan(shape, spec)
					if err == nil {
						err = p.RunBytes(dst, in, 1, value)
					}
					if err != nil || !bytes.Equal(dst, want) {
						t.Fatalf("%v %v: output differs from the reference (%v)", shape, spec, err)
					}
				})
			})
			// Taken: 42 groups of 12 planes (blockGroupOf), 8 groups a
			// batch, then the other 8 planes by the planes' own table, in
			// one batch; the pattern only for a nonzero value.
			pat := -1
			if value[0] != 0 {
				pat = int(value[0])
			}
			want := [][4]int{{42, 12 * 81, 8, pat}, {8, 81, 101, pat}}
			if !on {
				want = nil
			}
			if !slices.Equal(calls, want) {
				t.Errorf("%v %v, tables %v: blocks kernel calls (planes, dstPlane, batch, pat[0]) %v, want %v", shape, spec, on, calls, want)
			}
		}
	}

	// With VBMI, whose set has no blocks kernel, planes whose tables say so
	// (byAVX2) take the AVX2 one: uint8 [1, 64, 200, 2] edge-padded by 1
	// (808-byte planes of 4-byte rows), and float32 planes of fewer than
	// rowChunksPlaneMin rows (1632-byte planes of 16-byte rows), not those
	// of more, which take the chunks kernel by their runs. Constant-padded
	// ones take it only where that level's kernels decline them
	// (avx2Fallback): those with no pad rows before the shuffle kernel (64
	// of 220 bytes); those with pad rows before the first that starts on a
	// 64-byte boundary, which the expand kernel wants (of 64 planes of 210
	// bytes after a pad plane, the first 31), or all of them where the
	// level has no byte expand kernel (without VBMI2); a run from the
	// output's start, on one, only there.
	vbmi := kernelsAt(levelAVX512)
	if vbmi == nil || !vbmi.supported || vbmi.planeChunks == nil {
		t.Skip("the CPU has no AVX-512 VBMI")
	}
	var expanded [][4]int // the calls for planes the byte expand kernel makes where the level has it
	shifted := [][4]int{{31, 210, 39, 3}}
	if vbmi.rowsExpand == nil {
		expanded = [][4]int{{64, 808, 10, -1}}
		shifted = [][4]int{{64, 210, 39, 3}}
	}
	for _, c := range []struct {
		shape         []int
		mode          Mode
		before, after []int
		value         []byte
		want          [][4]int
		size          int // element size: 1 where 0
	}{
		{[]int{1, 64, 200, 2}, Edge, []int{0, 0, 1, 1}, []int{0, 0, 1, 1}, nil, [][4]int{{64, 808, 10, -1}}, 0},
		{[]int{1, 64, rowChunksPlaneMin - 28, 2}, Reflect, []int{0, 0, 1, 1}, []int{0, 0, 1, 1}, nil, [][4]int{{64, 1632, 5, -1}}, 4},
		{[]int{1, 64, rowChunksPlaneMin, 2}, Reflect, []int{0, 0, 1, 1}, []int{0, 0, 1, 1}, nil, [][4]int{}, 4},
		{[]int{1, 64, 200, 2}, Constant, []int{0, 0, 1, 1}, []int{0, 0, 1, 1}, nil, expanded, 0},
		{[]int{1, 64, 44, 2}, Constant, []int{0, 1, 0, 2}, []int{0, 0, 0, 1}, []byte{3}, [][4]int{{64, 220, 37, 3}}, 0},
		{[]int{1, 64, 40, 2}, Constant, []int{0, 1, 1, 2}, []int{0, 0, 1, 1}, []byte{3}, shifted, 0},
		{[]int{1, 64, 40, 2}, Constant, []int{0, 0, 1, 2}, []int{0, 1, 1, 1}, []byte{3}, nil, 0},
		// Groups of planes that take the value, of at most
		// vbmiValueGroupMax bytes: 12 bytes (uint8 3x1 to 6x2) in 12
		// groups of 85 (1020 bytes), the other 4 planes by the shuffle
		// kernel; 18 bytes (3x1 to 6x3) not.
		{[]int{1, 1024, 3, 1}, Constant, []int{0, 0, 2, 1}, []int{0, 0, 1, 0}, []byte{3}, [][4]int{{12, 1020, 8, 3}}, 0},
		{[]int{1, 1024, 3, 1}, Constant, []int{0, 0, 2, 1}, []int{0, 0, 1, 1}, []byte{3}, [][4]int{}, 0},
	} {
		if c.want == nil && c.value != nil && vbmi.rowsExpand == nil {
			c.want = [][4]int{{64, 210, 39, 3}}
		}
		spec := Spec{Mode: c.mode, Before: c.before, After: c.after}
		size := max(c.size, 1)
		in := randomBytes(r, size*prod(c.shape))
		want, _, _ := refPad(in, size, c.shape, spec, c.value)
		dst := suite.AlignedBytes(len(want)) // on a 64-byte boundary, as the expand kernel wants
		calls = nil
		withLevel(levelAVX512, func() {
			withValue(&periodicAtFirstRun, true, func() {
				p, err := newExecPlan(c.shape, spec)
				if err == nil {
					err = p.RunBytes(dst, in, size, c.value)
				}
				if err != nil || !bytes.Equal(dst, want) {
					t.Fatalf("%v %v: output differs from the reference (%v)", c.shape, spec, err)
				}
			})
		})
		if !slices.Equal(calls, c.want) {
			t.Errorf("AVX-512, %v %v: AVX2 blocks kernel calls (planes, dstPlane, batch, pat[0]) %v, want %v", c.shape, spec, calls, c.want)
		}
	}
}

// TestRowBlocks runs random plans of narrow rows (rank 2 and 3, every
// mode, some cropped, with and without a value) at every level this CPU
// has, against guard pages and the reference. Spies check that at the
// AVX2 level uint8 [1000, 2] rows reflected by 1 take the blocks kernel,
// 320 rows to a plane (three planes), the 40 past them not; and with VBMI
// that they take the chunks kernel, 64 rows to a plane (15 planes), and
// that uint8 [1000, 1] padded by 1 with a value takes the AVX2 blocks
// kernel (byAVX2).
func TestRowBlocks(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(101, 102))
	runRandomPlans(t, r, levels, 300, 5, func() ([]int, Spec, int, []byte) {
		return drawNarrowRows(r, 1+r.IntN(12), 1<<r.IntN(3))
	}, func(p *Plan, es int) bool { return p.tablesFor(es).rowBlocks != nil }, "have a row blocks table")

	ks := kernelsAt(levelAVX2)
	if ks == nil || !ks.supported {
		t.Skip("the CPU has no AVX2: no blocks kernel")
	}
	var calls [][2]int // planes and dstPlane of each call
	kernel := ks.planeBlocks
	setForTest(t, &ks.planeBlocks, func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, blocks, batch int, pat *[32]byte) {
		calls = append(calls, [2]int{planes, dstPlane})
		kernel(dst, src, planes, dstPlane, srcPlane, tab, blocks, batch, pat)
	})
	run := func(level kernelLevel, shape []int, spec Spec, value []byte) {
		t.Helper()
		checkAtLevel(t, level, shape, spec, randomBytes(r, prod(shape)), value)
	}
	pairs := Spec{Mode: Reflect, Before: []int{0, 1}, After: []int{0, 0}}
	run(levelAVX2, []int{1000, 2}, pairs, nil)
	if want := [][2]int{{3, 960}}; !slices.Equal(calls, want) {
		t.Errorf("AVX2, [1000 2] %v: blocks kernel calls (planes, dstPlane) %v, want %v", pairs, calls, want)
	}

	vbmi := kernelsAt(levelAVX512)
	if vbmi == nil || !vbmi.supported || vbmi.planeChunks == nil {
		t.Skip("the CPU has no AVX-512 VBMI: no chunks kernel")
	}
	var chunkPlanes, chunkStride int
	chunks := vbmi.planeChunks
	setForTest(t, &vbmi.planeChunks, func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, n, last, inLen int) {
		chunkPlanes += planes
		chunkStride = dstPlane
		chunks(dst, src, planes, dstPlane, srcPlane, tab, n, last, inLen)
	})
	calls = nil
	run(levelAVX512, []int{1000, 2}, pairs, nil)
	if chunkPlanes != 15 || chunkStride != 192 || calls != nil {
		t.Errorf("AVX-512, [1000 2] %v: %d planes of %d bytes by the chunks kernel, want 15 of 192; blocks kernel calls %v, want none", pairs, chunkPlanes, chunkStride, calls)
	}
	value := Spec{Mode: Constant, Before: []int{0, 1}, After: []int{0, 1}}
	run(levelAVX512, []int{1000, 1}, value, []byte{3})
	if want := [][2]int{{3, 960}}; !slices.Equal(calls, want) {
		t.Errorf("AVX-512, [1000 1] %v: AVX2 blocks kernel calls (planes, dstPlane) %v, want %v", value, calls, want)
	}
}

// drawNarrowRows draws a plan of rows of w elements of es bytes (rank 2,
// or 3 with planes of up to 1000 rows), every mode, pads of up to 3 on the
// rows' axis, some cropped, and up to 1 on the planes' rows; for constant
// padding a random value half the time.
func drawNarrowRows(r *rand.Rand, w, es int) ([]int, Spec, int, []byte) {
	pad := func() int { return r.IntN(4) }
	lp, rp := pad(), pad()
	if w > 1 && r.IntN(5) == 0 {
		lp = -1
	}
	spec := Spec{Mode: Mode(r.IntN(int(Symmetric) + 1)), Before: []int{0, lp}, After: []int{0, rp}}
	shape := []int{1 + r.IntN(3000), w}
	if r.IntN(3) == 0 {
		shape = []int{1 + r.IntN(4), 1 + r.IntN(1000), w}
		spec.Before, spec.After = []int{0, r.IntN(2), lp}, []int{0, r.IntN(2), rp}
	}
	var value []byte
	if spec.Mode == Constant && r.IntN(2) == 0 {
		value = randomBytes(r, es)
	}
	return shape, spec, es, value
}

// TestCubes runs random plans of small cubes (rank 4 and 5, pads on the
// three innermost axes and some on the one above, every mode, some
// cropped, with and without a value) at every level this CPU has, against
// guard pages and the reference. Spies check that uint8 [3220, 2, 2, 3]
// reflected to [3220, 3, 3, 7] takes the blocks kernel at the AVX2 level
// and at the AVX-512 one without VBMI (201 groups of 16 cubes in one
// call) and the chunks kernel with VBMI (402 groups of 8), the 4 past
// them neither.
func TestCubes(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(113, 114))
	runRandomPlans(t, r, levels, 400, 4, func() ([]int, Spec, int, []byte) {
		shape := []int{1 + r.IntN(120), 1 + r.IntN(4), 1 + r.IntN(5), 1 + r.IntN(6)}
		switch r.IntN(4) { // at most 1 MiB out
		case 0:
			shape[0] = 1 + r.IntN(60)
			shape = append([]int{1 + r.IntN(2)}, shape...)
		case 1: // wide rows
			shape[0], shape[3] = 1+r.IntN(30), 7+r.IntN(34)
		}
		n := len(shape)
		spec := Spec{Mode: Mode(r.IntN(int(Symmetric) + 1)), Before: make([]int, n), After: make([]int, n)}
		for a := n - 3; a < n; a++ {
			spec.Before[a], spec.After[a] = r.IntN(3), r.IntN(3)
		}
		if r.IntN(4) == 0 {
			spec.Before[n-4], spec.After[n-4] = r.IntN(2), r.IntN(2)
		}
		if shape[n-1] > 1 && r.IntN(6) == 0 {
			spec.Before[n-1] = -1
		}
		es := 1 << r.IntN(4)
		var value []byte
		if spec.Mode == Constant && r.IntN(2) == 0 {
			value = randomBytes(r, es)
		}
		return shape, spec, es, value
	}, func(p *Plan, es int) bool {
		return p.tablesFor(es).cubes != nil
	}, "have a cube table")

	shape := []int{3220, 2, 2, 3}
	spec := Spec{Mode: Reflect, Before: []int{0, 0, 0, 2}, After: []int{0, 1, 1, 2}}
	in := randomBytes(r, prod(shape))
	for _, level := range levels {
		ks := kernelsAt(level)
		if level == levelGo || ks == nil {
			continue
		}
		blocksSet := ks // the AVX2 kernel's set where ks has none (byAVX2)
		if ks.planeBlocks == nil {
			blocksSet = kernelsAt(levelAVX2)
		}
		var blockCalls, chunkCalls [][2]int // planes and dstPlane of each call
		blocks := blocksSet.planeBlocks
		setForTest(t, &blocksSet.planeBlocks, func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, n, batch int, pat *[32]byte) {
			blockCalls = append(blockCalls, [2]int{planes, dstPlane})
			blocks(dst, src, planes, dstPlane, srcPlane, tab, n, batch, pat)
		})
		// 201 groups of 16 cubes by the blocks kernel, 402 of 8 (128 bytes
		// in) by the chunks kernel where the level has it; the 4 past
		// them, 12 bytes in each, no table takes.
		wantBlocks, wantChunks := [][2]int{{201, 16 * 63}}, [][2]int(nil)
		if chunks := ks.planeChunks; chunks != nil {
			setForTest(t, &ks.planeChunks, func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, n, last, inLen int) {
				chunkCalls = append(chunkCalls, [2]int{planes, dstPlane})
				chunks(dst, src, planes, dstPlane, srcPlane, tab, n, last, inLen)
			})
			wantBlocks, wantChunks = nil, [][2]int{{402, 8 * 63}}
		}
		checkAtLevel(t, level, shape, spec, in, nil)
		if !slices.Equal(blockCalls, wantBlocks) || !slices.Equal(chunkCalls, wantChunks) {
			t.Errorf("%v, %v %v: blocks kernel calls (planes, dstPlane) %v, want %v; chunks kernel calls %v, want %v",
				level, shape, spec, blockCalls, wantBlocks, chunkCalls, wantChunks)
		}
	}
}

// checkAtLevel runs a plan of shape and spec at level over the uint8 input
// in, with value, and fails the test if it does not make the reference's
// output.
func checkAtLevel(t *testing.T, level kernelLevel, shape []int, spec Spec, in, value []byte) {
	t.Helper()
	checkSizeAtLevel(t, level, shape, spec, 1, in, value)
}

// checkSizeAtLevel is checkAtLevel for elements of es bytes.
func checkSizeAtLevel(t *testing.T, level kernelLevel, shape []int, spec Spec, es int, in, value []byte) {
	t.Helper()
	want, _, _ := refPad(in, es, shape, spec, value)
	dst := make([]byte, len(want))
	withLevel(level, func() {
		p, err := newExecPlan(shape, spec)
		if err == nil {
			err = p.RunBytes(dst, in, es, value)
		}
		if err != nil || !bytes.Equal(dst, want) {
			t.Fatalf("%v %v: output differs from the reference (%v)", shape, spec, err)
		}
	})
}
