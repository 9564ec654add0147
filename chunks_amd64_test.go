//go:build amd64 && unix && gc && !purego && !noasm

package pad

// Tests of the chunks kernel (planeChunksAVX512) against its Go version:
// random tables of 2 to chunksMax blocks over input planes of 1 to 256
// bytes, planes with gaps and broadcast input planes, with dst and src
// against PROT_NONE pages (the input's loads must not reach past the page
// of the call's last input byte); a fuzz target; and plans whose planes take the kernel, at every
// level, against the reference (chunks_test.go checks the tables).

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"testing"
)

// chunksKernel returns the chunks kernel, or skips t.
func chunksKernel(t testing.TB) func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, chunks, last, inLen int) {
	ks := kernelsAt(levelAVX512)
	if ks == nil || !ks.supported || ks.planeChunks == nil {
		t.Skip("the CPU has no AVX-512 VBMI: no chunks kernel")
	}
	return ks.planeChunks
}

// randomChunkTable draws a kernel table: any indexes below inLen, the last
// block anywhere after the one before it.
func randomChunkTable(r *rand.Rand) *chunkTable {
	c := 2 + r.IntN(chunksMax-1)
	t := &chunkTable{width: 64*(c-1) + 1 + r.IntN(64), inLen: 1 + r.IntN(chunkInMax), idx: make([][64]byte, c)}
	if r.IntN(4) == 0 {
		t.inLen = []int{1, 63, 64, 65, 127, 128, 129, 191, 192, 193, 255, 256}[r.IntN(12)]
	}
	for b := range t.idx {
		for i := range t.idx[b] {
			t.idx[b][i] = byte(r.IntN(t.inLen))
		}
	}
	return t
}

// checkChunksGuarded runs the kernel on planes of table tb against guard
// pages (checkPlanesGuarded).
func checkChunksGuarded(t *testing.T, r *rand.Rand, a *guardArena, kernel func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, chunks, last, inLen int), tb *chunkTable, end bool) {
	checkPlanesGuarded(t, r, a, len(tb.idx), tb.width, tb.inLen, end,
		func(dst, src []byte, pl planes) { planeChunksGo(dst, src, pl, tb) },
		func(dp, sp *byte, pl planes) {
			kernel(dp, sp, pl.n, pl.dst, pl.src, &tb.idx[0][0], len(tb.idx), tb.width-64, tb.inLen)
		})
}

// checkPlanesGuarded runs a planes kernel (a table of blocks blocks,
// planes of width bytes out from inLen in) on 1 to 5 planes, gapped or
// from one input plane, with dst and src in a's regions 0 and 1, ending at
// their guard pages (end) or starting after them, and compares dst, gaps
// included, with its Go version's.
func checkPlanesGuarded(t *testing.T, r *rand.Rand, a *guardArena, blocks, width, inLen int, end bool, goVersion func(dst, src []byte, pl planes), kernel func(dp, sp *byte, pl planes)) {
	t.Helper()
	n := 1 + r.IntN(9) // the blocks kernel takes planes by 1, 2 and 4
	pl := planes{n, width + r.IntN(3)*r.IntN(70), 0}
	if r.IntN(4) != 0 {
		pl.src = inLen + r.IntN(3)*r.IntN(50)
	}
	dst, dp := a.place(0, (n-1)*pl.dst+width, 0, end)
	src, sp := a.place(1, (n-1)*pl.src+inLen, 0, end)
	for i := range src {
		src[i] = byte(r.Uint32())
	}
	for i := range dst {
		dst[i] = 0xA5
	}
	want := bytes.Clone(dst)
	goVersion(want, src, pl)
	what := func() string {
		return fmt.Sprintf("%d blocks, width %d, inLen %d, %v, %s", blocks, width, inLen, pl, guardPass(end))
	}
	func() {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer a.catchFault(t, what)
		kernel(dp, sp, pl)
	}()
	if !bytes.Equal(dst, want) {
		t.Fatalf("%s: %s", what(), gridFirstDiff(dst, want))
	}
}

func TestPlaneChunksKernel(t *testing.T) {
	kernel := chunksKernel(t)
	a := newGuardArena(t, 2, 8<<10)
	r := rand.New(rand.NewPCG(61, 62))
	calls := 3000
	if testing.Short() {
		calls = 500
	}
	for i := range calls {
		checkChunksGuarded(t, r, a, kernel, randomChunkTable(r), i%2 == 0)
	}
	// A plane's table is in the kernel's registers: a wrong block count
	// or a block written from another's indexes fails here.
	for c := 2; c <= chunksMax; c++ {
		for _, inLen := range []int{128, 256} {
			tb := &chunkTable{width: 64 * c, inLen: inLen, idx: make([][64]byte, c)}
			for b := range tb.idx {
				for i := range tb.idx[b] {
					tb.idx[b][i] = byte((b*7 + i*3) % inLen)
				}
			}
			checkChunksGuarded(t, r, a, kernel, tb, c%2 == 0)
		}
	}
}

func FuzzPlaneChunks(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, x, y uint64) {
		kernel := chunksKernel(t)
		a := newGuardArena(t, 2, 8<<10)
		r := rand.New(rand.NewPCG(x, y))
		checkChunksGuarded(t, r, a, kernel, randomChunkTable(r), x%2 == 0)
	})
}

// TestPlaneChunks runs random plans of small planes that take no value
// (edge, reflect, wrap and symmetric padding, some cropped, pads up to
// twice the axis and more) at every level this CPU has, against guard
// pages and the reference. Spies check that uint8 7x7 planes edge-padded
// by 3 take the kernel, 512 planes in one call, and that disabling it
// (planeChunksOn) leaves them to the shuffle kernel; that planes whose
// pads are longer than their axis, which have no row runs, take their
// tables too; and that planes of at most 128 bytes take it in groups
// where chunkGroupOf says so, the planes past the last group a row each.
func TestPlaneChunks(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(63, 64))
	runRandomPlans(t, r, levels, 400, 5, func() ([]int, Spec, int, []byte) {
		h, w := 2+r.IntN(9), 2+r.IntN(11)
		pad := func() int { return r.IntN(5) } // up to twice the axis and more
		tp, bp, lp, rp := pad(), pad(), pad(), pad()
		if r.IntN(5) == 0 {
			lp = -1
		}
		spec := Spec{Mode: Mode(1 + r.IntN(int(Symmetric))), Before: []int{0, 0, tp, lp}, After: []int{0, 0, bp, rp}}
		return []int{1 + r.IntN(2), 1 + r.IntN(60), h, w}, spec, 1 << r.IntN(4), nil
	}, func(p *Plan, es int) bool { return p.tablesFor(es).chunks != nil }, "have a chunk table")

	ks := kernelsInUse()
	if ks == nil || ks.planeChunks == nil {
		t.Skip("the level in use has no chunks kernel (AVX-512 VBMI)")
	}
	var calls, planesMade, shuffled, shuffledRows int
	kernel, shuffle := ks.planeChunks, ks.rowsShuffle
	setForTest(t, &ks.planeChunks, func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, chunks, last, inLen int) {
		calls, planesMade = calls+1, planesMade+planes
		kernel(dst, src, planes, dstPlane, srcPlane, tab, chunks, last, inLen)
	})
	setForTest(t, &ks.rowsShuffle, func(dst, src *byte, n, dstStride, srcStride, width, mid int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int, srcLimit uintptr) {
		shuffled, shuffledRows = shuffled+1, shuffledRows+n*planes
		shuffle(dst, src, n, dstStride, srcStride, width, mid, tab, pat, planes, dstPlane, srcPlane, rowIdx, run0, run1, srcLimit)
	})
	for _, c := range []struct {
		shape     []int
		mode      Mode
		pad, size int
		table     string // the planes' table: "chunks", "plane" or "group"
		group     int    // planes a group
	}{
		{[]int{1, 512, 7, 7}, Edge, 3, 1, "chunks", 0},
		// Pads longer than the axis: the plane level has no row runs, but
		// the planes still take their table.
		{[]int{1, 128, 2, 9}, Wrap, 3, 4, "chunks", 0},
		{[]int{1, 128, 3, 16}, Reflect, 3, 2, "chunks", 0},
		{[]int{1, 64, 7, 7}, Edge, 1, 1, "plane", 0}, // 3 blocks for 2 planes' 4 stores: no groups
		// Groups of planes of at most 128 bytes (chunkGroupOf): 12 of 5
		// planes, the last 4 planes by the shuffle kernel; 128 of 8.
		{[]int{1, 64, 2, 5}, Wrap, 3, 1, "group", 5},
		{[]int{1, 1024, 4, 4}, Edge, 1, 1, "group", 8},
	} {
		spec := Spec{Mode: c.mode, Before: []int{0, 0, c.pad, c.pad}, After: []int{0, 0, c.pad, c.pad}}
		in := randomBytes(r, c.size*prod(c.shape))
		want, _, _ := refPad(in, c.size, c.shape, spec, nil)
		n := c.shape[0] * c.shape[1]
		for _, on := range []bool{true, false} {
			calls, planesMade, shuffled, shuffledRows = 0, 0, 0, 0
			dst := make([]byte, len(want))
			withValue(&planeChunksOn, on, func() { // the tables are built at the first run
				p, err := newExecPlan(c.shape, spec)
				if err == nil {
					err = p.RunBytes(dst, in, c.size, nil)
				}
				if err != nil || !bytes.Equal(dst, want) {
					t.Fatalf("%v %v: output differs from the reference (%v)", c.shape, spec, err)
				}
			})
			switch {
			case c.table == "plane" && (calls != 0 || shuffled != 1 || shuffledRows != n):
				t.Errorf("%v %v size %d: %d chunks kernel calls, %d shuffle calls of %d rows, want none and one of %d (a plane a row)", c.shape, spec, c.size, calls, shuffled, shuffledRows, n)
			case c.table == "chunks" && on && (calls != 1 || planesMade != n || shuffled != 0):
				t.Errorf("%v %v size %d: %d chunks kernel calls of %d planes and %d shuffle calls, want one of %d planes and none", c.shape, spec, c.size, calls, planesMade, shuffled, n)
			case c.table == "group" && on && (calls != 1 || planesMade != n/c.group || shuffled != min(n%c.group, 1) || shuffledRows != n%c.group):
				t.Errorf("%v %v size %d: %d chunks kernel calls of %d planes, %d shuffle calls of %d rows; want one of %d groups of %d and the other %d planes a row",
					c.shape, spec, c.size, calls, planesMade, shuffled, shuffledRows, n/c.group, c.group, n%c.group)
			case c.table == "group" && !on && (calls != 0 || shuffledRows != n):
				t.Errorf("%v %v size %d without chunk tables: %d chunks kernel calls, %d rows shuffled; want none and %d (a plane a row)", c.shape, spec, c.size, calls, shuffledRows, n)
			case c.table == "chunks" && !on && calls != 0:
				t.Errorf("%v %v size %d without chunk tables: %d chunks kernel calls, want none", c.shape, spec, c.size, calls)
			}
		}
	}
}

// TestPlaneGroups runs random plans of tiny planes (up to 6x10 elements of
// 1 to 4 bytes, every mode, constant mostly with a zero value, some
// cropped, 1 to 99 planes, so
// that most counts leave planes past the last group, padded on their axis
// too) at every level this CPU has, against guard pages and the reference;
// at least a fifth must take planes in groups (chunkGroupOf for the chunks
// kernel, blockGroupOf for the blocks kernel, with zero values too).
func TestPlaneGroups(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(91, 92))
	runRandomPlans(t, r, levels, 300, 5, func() ([]int, Spec, int, []byte) {
		h, w := 1+r.IntN(6), 1+r.IntN(10)
		pad := func(n int) int { return r.IntN(min(n, 3) + 1) }
		tp, bp, lp, rp := pad(h), pad(h), pad(w), pad(w)
		if r.IntN(5) == 0 && w > 1 {
			lp = -1
		}
		c := 1 + r.IntN(99)
		cp := func() int { return r.IntN(min(c, 3) + 1) } // planes padded on their axis: some from one input plane
		spec := Spec{Mode: Mode(r.IntN(int(Symmetric) + 1)), Before: []int{0, cp(), tp, lp}, After: []int{0, cp(), bp, rp}}
		es := 1 << r.IntN(3)
		var value []byte // nil: zero, which the blocks groups of constant planes serve
		if spec.Mode == Constant && r.IntN(3) == 0 {
			value = randomBytes(r, es)
		}
		return []int{1 + r.IntN(2), c, h, w}, spec, es, value
	}, func(p *Plan, es int) bool {
		tb := p.tablesFor(es)
		return tb.chunkGroups != nil || tb.blockGroups != nil
	}, "take planes in groups")
}

// TestPieceRows runs random plans of rows of units padded on the axis of
// the units (every mode, some cropped, units of 3 to 40 elements) at
// every level this CPU has, against guard pages and the reference. A spy
// checks that with VBMI uint8 [518, 11, 22] reflected by 3 on axis 1,
// 22-byte units mirrored, takes the chunks kernel a row a plane
// (pieceRowChunksOf).
func TestPieceRows(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(117, 118))
	runRandomPlans(t, r, levels, 300, 10, func() ([]int, Spec, int, []byte) {
		es, unit := 1<<r.IntN(4), 3+r.IntN(38)
		units := 1 + r.IntN(min(12, max(1, 256/(unit*es)))) // mostly at most 256 bytes in
		pad := func() int { return r.IntN(min(units, 3) + 1) }
		mode := Mode(r.IntN(int(Symmetric) + 1))
		if r.IntN(3) > 0 {
			mode = Reflect // mirrored units: the table's rows
		}
		spec := Spec{Mode: mode, Before: []int{0, pad(), 0}, After: []int{0, pad(), 0}}
		if units > 1 && r.IntN(5) == 0 {
			spec.Before[1] = -1
		}
		var value []byte
		if spec.Mode == Constant && r.IntN(2) == 0 {
			value = randomBytes(r, es)
		}
		return []int{1 + r.IntN(300), units, unit}, spec, es, value
	}, func(p *Plan, es int) bool {
		tb := p.tablesFor(es).rowChunks
		return tb != nil && tb.rows == 1
	}, "have a chunks table of a row a plane")

	ks := kernelsAt(levelAVX512)
	if ks == nil || !ks.supported || ks.planeChunks == nil {
		t.Skip("the CPU has no AVX-512 VBMI: no chunks kernel")
	}
	var calls [][2]int // planes and dstPlane of each call
	kernel := ks.planeChunks
	setForTest(t, &ks.planeChunks, func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, n, last, inLen int) {
		calls = append(calls, [2]int{planes, dstPlane})
		kernel(dst, src, planes, dstPlane, srcPlane, tab, n, last, inLen)
	})
	shape := []int{518, 11, 22}
	spec := Spec{Mode: Reflect, Before: []int{0, 3, 0}, After: []int{0, 3, 0}}
	checkAtLevel(t, levelAVX512, shape, spec, randomBytes(r, prod(shape)), nil)
	if want := [][2]int{{518, 374}}; !slices.Equal(calls, want) {
		t.Errorf("%v %v: chunks kernel calls (planes, dstPlane) %v, want %v", shape, spec, calls, want)
	}
}

// TestTallPlaneRuns runs planes of narrow rows of 20 to 600 rows at every
// level against the reference, then checks that with VBMI planes of at
// least rowChunksPlaneMin rows take the chunks kernel for their long run
// (planesByList leaves them to their runs) and shorter ones the AVX2
// blocks kernel (blockTable.byAVX2), where the shuffle kernel made them a
// row at a time.
func TestTallPlaneRuns(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(121, 122))
	runRandomPlans(t, r, levels, 200, 4, func() ([]int, Spec, int, []byte) {
		es, cols, rows := 1<<r.IntN(3), 1+r.IntN(4), 20+r.IntN(580)
		mode := Mode(r.IntN(int(Symmetric) + 1))
		pad := func(n int) int { return r.IntN(min(n-1, 2) + 1) }
		spec := Spec{Mode: mode, Before: []int{0, pad(rows), pad(cols)}, After: []int{0, pad(rows), pad(cols)}}
		return []int{1 + r.IntN(8), rows, cols}, spec, es, nil
	}, func(p *Plan, es int) bool {
		return p.tablesFor(es).rowChunks != nil && p.levels[len(p.levels)-2].inLen >= rowChunksPlaneMin
	}, "have a row chunks table and planes of rowChunksPlaneMin rows")

	ks := kernelsAt(levelAVX512)
	if ks == nil || !ks.supported || ks.planeChunks == nil {
		t.Skip("the CPU has no AVX-512 VBMI: no chunks kernel")
	}
	avx2 := kernelsAt(levelAVX2)
	var chunks, shuffles, blocks int
	chunk, shuffle, block := ks.planeChunks, ks.rowsShuffle, avx2.planeBlocks
	setForTest(t, &ks.planeChunks, func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, n, last, inLen int) {
		chunks++
		chunk(dst, src, planes, dstPlane, srcPlane, tab, n, last, inLen)
	})
	setForTest(t, &ks.rowsShuffle, func(dst, src *byte, rows, dstStride, srcStride, width, mid int, tab *[144]byte, pat *[32]byte, planes, dstPlane, srcPlane int, rowIdx *int32, run0, run1 int, srcLimit uintptr) {
		shuffles++
		shuffle(dst, src, rows, dstStride, srcStride, width, mid, tab, pat, planes, dstPlane, srcPlane, rowIdx, run0, run1, srcLimit)
	})
	setForTest(t, &avx2.planeBlocks, func(dst, src *byte, planes, dstPlane, srcPlane int, tab *byte, n, batch int, pat *[32]byte) {
		blocks++
		block(dst, src, planes, dstPlane, srcPlane, tab, n, batch, pat)
	})
	spec := Spec{Mode: Edge, Before: []int{0, 1, 0}, After: []int{0, 2, 1}}
	for _, rows := range []int{rowChunksPlaneMin, rowChunksPlaneMin - 1} {
		chunks, shuffles, blocks = 0, 0, 0
		shape := []int{8, rows, 2} // float32 rows of 8 bytes padded to 12
		checkSizeAtLevel(t, levelAVX512, shape, spec, 4, randomBytes(r, 4*prod(shape)), nil)
		tall := rows >= rowChunksPlaneMin
		if tall && (chunks == 0 || blocks > 0) || !tall && (chunks > 0 || shuffles > 0 || blocks != 1) {
			t.Errorf("%v %v: %d chunks kernel calls, %d shuffle kernel calls, %d blocks kernel calls; want the chunks kernel's: %v, else one blocks kernel call",
				shape, spec, chunks, shuffles, blocks, tall)
		}
	}
}
