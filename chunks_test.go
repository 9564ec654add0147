package pad

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestChunkTableOf checks which planes get a block table and that the Go
// version of the chunks kernel with it makes the reference's planes.
func TestChunkTableOf(t *testing.T) {
	checkPlaneTables(t, rand.New(rand.NewPCG(65, 66)), "chunk", []planeTableCase{
		{[]int{1, 5, 7, 7}, Edge, 3, 1, 3, 169, 49},
		{[]int{2, 3, 7, 7}, Reflect, 2, 2, 4, 242, 98},
		{[]int{1, 4, 8, 8}, Wrap, 3, 1, 4, 196, 64},
		{[]int{1, 4, 3, 3}, Symmetric, 2, 4, 4, 196, 36},
		{[]int{1, 4, 7, 7}, Constant, 3, 1, 0, 0, 0}, // takes the value
		{[]int{1, 4, 7, 7}, Edge, 1, 1, 0, 0, 0},     // 81 bytes: planeTable's
		{[]int{1, 4, 14, 14}, Edge, 1, 1, 4, 256, 196},
		{[]int{1, 4, 16, 17}, Edge, 1, 1, 0, 0, 0}, // 272 bytes of input
		{[]int{1, 4, 5, 5}, Edge, 1, 8, 0, 0, 0},   // 200 bytes of input, 7 rows for 7 blocks
		{[]int{1, 4, 3, 3}, Edge, 3, 8, 0, 0, 0},   // 648 bytes: more than chunksMax blocks
		{[]int{1, 4, 2, 8}, Edge, 1, 8, 0, 0, 0},   // 80-byte rows
	}, func(p *Plan, size int) (blocks, width, inLen int, run func(dst, src []byte, pl planes, pat *[32]byte)) {
		var tb *chunkTable
		withValue(&planeChunksOn, true, func() { tb = p.tablesFor(size).chunks })
		if tb == nil {
			return 0, 0, 0, nil
		}
		return len(tb.idx), tb.width, tb.inLen, func(dst, src []byte, pl planes, _ *[32]byte) { planeChunksGo(dst, src, pl, tb) }
	})
}

// planeTableCase is a plan whose planes may get a table of blocks: its
// shape padded by pad on its last two axes, and the table at element size
// size (blocks 0: none).
type planeTableCase struct {
	shape        []int
	mode         Mode
	pad, size    int
	blocks       int // 0: no table
	width, inLen int
}

// checkPlaneTables checks that each case's plan has the kind of table
// tableOf returns (its blocks, plane width and input length, and the Go
// version of its kernel, with the value's pattern or nil for a zero value;
// run nil for none) as the case says, and that the Go version with it
// makes the reference's planes, with a zero value and, for constant
// padding, a nonzero one.
func checkPlaneTables(t *testing.T, r *rand.Rand, kind string, cases []planeTableCase, tableOf func(p *Plan, size int) (blocks, width, inLen int, run func(dst, src []byte, pl planes, pat *[32]byte))) {
	t.Helper()
	for _, c := range cases {
		spec := Spec{Mode: c.mode, Before: []int{0, 0, c.pad, c.pad}, After: []int{0, 0, c.pad, c.pad}}
		p, err := newExecPlan(c.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		blocks, width, inLen, run := tableOf(p, c.size)
		if c.blocks == 0 {
			if run != nil {
				t.Errorf("%v %v size %d: a %s table of %d blocks, want none", c.shape, spec, c.size, kind, blocks)
			}
			continue
		}
		if run == nil || blocks != c.blocks || width != c.width || inLen != c.inLen {
			t.Errorf("%v %v size %d: %s table %v of %d blocks, width %d, inLen %d; want %d blocks, width %d, inLen %d",
				c.shape, spec, c.size, kind, run != nil, blocks, width, inLen, c.blocks, c.width, c.inLen)
			continue
		}
		in := randomBytes(r, c.size*prod(c.shape))
		for _, value := range tableValues(r, c.mode, c.size) {
			want, _, _ := refPad(in, c.size, c.shape, spec, value)
			n := c.shape[0] * c.shape[1]
			got := make([]byte, n*width)
			run(got, in, planes{n, width, inLen}, valuePattern(value))
			if !bytes.Equal(got, want) {
				t.Errorf("%v %v size %d, value %x: %s", c.shape, spec, c.size, value, gridFirstDiff(got, want))
			}
		}
	}
}

// tableValues returns the values to check a table with: zero (nil), and
// for constant padding a random one with no zero byte.
func tableValues(r *rand.Rand, mode Mode, size int) [][]byte {
	if mode != Constant {
		return [][]byte{nil}
	}
	v := randomBytes(r, size)
	for i := range v {
		v[i] |= 1
	}
	return [][]byte{nil, v}
}

// valuePattern is the pattern of the value v for the kernels, nil for a
// zero value.
func valuePattern(v []byte) *[32]byte {
	if v == nil {
		return nil
	}
	return patternOf(v)
}

// TestPlaneChunksLarge runs plans whose planes take chunk tables (and
// blocks tables, at the levels without VBMI) over outputs past the core's
// cache (the plan's input program) and split over two workers, against
// the reference.
func TestPlaneChunksLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(67, 68))
	for _, c := range []struct {
		shape     []int
		mode      Mode
		pad, size int
		blocks    bool
	}{
		{[]int{40, 512, 7, 7}, Edge, 3, 1, true},   // 3.5 MB of output
		{[]int{16, 256, 14, 14}, Wrap, 1, 1, true}, // four vectors of input a plane
		{[]int{8, 512, 7, 7}, Reflect, 2, 2, true},
		{[]int{64, 256, 3, 3}, Reflect, 1, 8, false}, // 40-byte rows
	} {
		spec := Spec{Mode: c.mode, Before: []int{0, 0, c.pad, c.pad}, After: []int{0, 0, c.pad, c.pad}}
		in := randomBytes(r, c.size*prod(c.shape))
		want, _, err := refPad(in, c.size, c.shape, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{1, 2} {
			p, err := newExecPlan(c.shape, spec, Workers(w))
			if err != nil {
				t.Fatal(err)
			}
			if tb := p.tablesFor(c.size); tb.chunks == nil || (tb.blocks != nil) != c.blocks {
				t.Fatalf("%v %v size %d: chunk table %v, blocks table %v, want one and %v", c.shape, spec, c.size, tb.chunks != nil, tb.blocks != nil, c.blocks)
			}
			for run := range 2 { // the second run has every table
				dst := make([]byte, len(want))
				if err := p.RunBytes(dst, in, c.size, nil); err != nil || !bytes.Equal(dst, want) {
					t.Fatalf("%v %v size %d, %d workers, run %d: %v %s", c.shape, spec, c.size, w, run, err, gridFirstDiff(dst, want))
				}
			}
		}
	}
}

// TestBlockTableOf checks which planes get a blocks table and that the Go
// version of the blocks kernel with it makes the reference's planes.
func TestBlockTableOf(t *testing.T) {
	checkPlaneTables(t, rand.New(rand.NewPCG(75, 76)), "blocks", []planeTableCase{
		{[]int{1, 5, 7, 7}, Edge, 1, 1, 3, 81, 49},
		{[]int{1, 5, 7, 7}, Reflect, 3, 1, 6, 169, 49},
		{[]int{2, 3, 7, 7}, Edge, 1, 2, 6, 162, 98},
		{[]int{1, 4, 14, 14}, Wrap, 1, 1, 8, 256, 196},
		{[]int{1, 4, 14, 14}, Edge, 4, 1, 16, 484, 196},
		{[]int{1, 4, 3, 3}, Symmetric, 2, 2, 4, 98, 18},
		{[]int{1, 4, 4, 14}, Wrap, 1, 1, 3, 96, 56},
		{[]int{1, 4, 14, 14}, Edge, 5, 1, 18, 576, 196},
		{[]int{1, 4, 14, 14}, Edge, 10, 1, 0, 0, 0},      // 1156 bytes of 34-byte rows
		{[]int{1, 4, 150, 5}, Edge, 1, 1, 34, 1064, 750}, // over 1 KiB: rows of up to 24 bytes (largeBlocksPay)
		{[]int{1, 2, 300, 3}, Reflect, 1, 1, 48, 1510, 900},
		{[]int{1, 4, 126, 6}, Wrap, 1, 2, 64, 2048, 1512},
		{[]int{1, 4, 60, 12}, Edge, 1, 2, 0, 0, 0},           // 28-byte rows over 1 KiB
		{[]int{1, 4, 28, 28}, Constant, 3, 1, 37, 1156, 784}, // rows of 33 to 46 bytes that take the value, up to 2 KiB
		{[]int{1, 4, 40, 40}, Constant, 2, 1, 61, 1936, 1600},
		{[]int{1, 4, 42, 42}, Constant, 2, 1, 0, 0, 0},    // 2116 bytes
		{[]int{1, 4, 7, 7}, Constant, 1, 1, 3, 81, 49},    // takes the value
		{[]int{1, 4, 3, 3}, Constant, 1, 8, 7, 200, 72},   // float64: the value's pattern in the element's phase
		{[]int{1, 4, 6, 6}, Constant, 9, 1, 18, 576, 36},  // 540 of 576 bytes the value
		{[]int{1, 4, 4, 4}, Edge, 1, 1, 0, 0, 0},          // 36 bytes from 16: the plane's narrow table
		{[]int{1, 4, 3, 3}, Edge, 2, 1, 0, 0, 0},          // 9 bytes of input
		{[]int{1, 4, 7, 7}, Edge, 1, 4, 0, 0, 0},          // 36-byte rows
		{[]int{1, 4, 6, 28}, Reflect, 1, 1, 10, 240, 168}, // 30-byte rows, the first from input row 1, the second from row 0
		{[]int{1, 4, 6, 32}, Reflect, 1, 1, 10, 272, 192}, // 34-byte rows of bytes, in blocks of whole 32 bytes
		{[]int{1, 4, 6, 32}, Wrap, 1, 1, 0, 0, 0},         // ... but not wrapped ones, whose blocks make part of them
		{[]int{1, 4, 6, 8}, Reflect, 1, 4, 0, 0, 0},       // float32 rows of 40 bytes: more than blockRowMax
		{[]int{1, 4, 6, 32}, Constant, 1, 1, 9, 272, 192}, // ... but they take a zero value: blockValueRowMax
		{[]int{1, 4, 6, 64}, Constant, 1, 1, 0, 0, 0},     // 66-byte rows: more than blockValueRowMax
		{[]int{2, 3, 7, 7}, Reflect, 2, 2, 8, 242, 98},    // a block of the last rows starts earlier
		{[]int{1, 4, 10, 10}, Wrap, 1, 1, 7, 144, 100},    // every block around row 1 takes from input rows 9, 0 and 1: first parts, and a last block made again
		{[]int{1, 4, 6, 20}, Wrap, 2, 1, 0, 0, 0},         // a block of rows 1 to 3 takes from input rows 5, 0 and 1, and no part of the last one does
		{[]int{1, 4, 7, 7}, Wrap, 1, 1, 5, 81, 49},        // uint8 7x7 planes wrapped by 1
		{[]int{1, 4, 12, 12}, Wrap, 1, 1, 0, 0, 0},        // no first part: row 1 takes from input rows 11 and 0 at both ends
	}, func(p *Plan, size int) (blocks, width, inLen int, run func(dst, src []byte, pl planes, pat *[32]byte)) {
		var tb *blockTable
		withValue(&planeBlocksOn, true, func() { tb = p.tablesFor(size).blocks })
		if tb == nil {
			return 0, 0, 0, nil
		}
		return len(tb.ent), tb.width, tb.inLen, func(dst, src []byte, pl planes, pat *[32]byte) { planeBlocksGo(dst, src, pl, tb, pat) }
	})
	// Tables know whether their planes take the value.
	for _, mode := range []Mode{Constant, Edge} {
		spec := Spec{Mode: mode, Before: []int{0, 0, 1, 1}, After: []int{0, 0, 1, 1}}
		p, err := newExecPlan([]int{1, 4, 7, 7}, spec)
		if err != nil {
			t.Fatal(err)
		}
		withValue(&planeBlocksOn, true, func() {
			if tb := p.tablesFor(1).blocks; tb == nil || tb.takesValue != (mode == Constant) {
				t.Errorf("%v: blocks table %v, takes the value %v", spec, tb != nil, tb != nil && tb.takesValue)
			}
		})
	}
	// The tables the VBMI level makes by the AVX2 kernel (byAVX2), or by
	// it where its own kernels decline them (avx2Fallback).
	for _, c := range []struct {
		shape            []int
		mode             Mode
		pad, size        int
		rows             bool // a row blocks table (rank 2), else a planes' table
		byAVX2, fallback bool
	}{
		{[]int{1, 4, 200, 2}, Edge, 1, 1, false, true, false},      // 4-byte rows
		{[]int{1, 4, 17, 17}, Reflect, 1, 1, false, true, false},   // 19-byte rows
		{[]int{1, 4, 8, 8}, Wrap, 1, 2, false, true, false},        // 20-byte rows
		{[]int{1, 4, 20, 20}, Edge, 1, 1, false, false, false},     // 22-byte rows: more than vbmiPlaneBlocksMax
		{[]int{1, 4, 200, 2}, Edge, 1, 4, false, false, false},     // elements of 4 bytes, planes of rowChunksPlaneMin rows or more
		{[]int{1, 4, 100, 2}, Edge, 1, 4, false, true, false},      // fewer
		{[]int{1, 4, 100, 1}, Edge, 1, 8, false, false, false},     // 24-byte rows: more than vbmiPlaneBlocksMax
		{[]int{1, 2, 300, 3}, Reflect, 1, 1, false, true, false},   // 1510 bytes of 5-byte rows
		{[]int{1, 4, 150, 18}, Edge, 1, 1, false, false, false},    // 3040 bytes of 20-byte rows: vbmiLargeBlocksMax
		{[]int{1, 4, 7, 7}, Constant, 1, 1, false, false, true},    // the value
		{[]int{1, 4, 6, 6}, Constant, 3, 2, false, false, true},    // 24-byte rows that take it
		{[]int{1, 4, 40, 22}, Constant, 1, 1, false, false, true},  // 1008 bytes of 24-byte rows
		{[]int{1, 4, 60, 20}, Constant, 1, 1, false, false, false}, // 1364 bytes of 22-byte rows: vbmiLargeBlocksMax
		{[]int{1, 4, 20, 21}, Constant, 2, 1, false, false, false}, // 25-byte rows: more than vbmiValueBlocksMax
		{[]int{1, 4, 7, 7}, Constant, 1, 4, false, false, false},   // elements of 4 bytes
		{[]int{1000, 1}, Constant, 1, 1, true, true, false},        // 3-byte rows that take the value
		{[]int{1000, 16}, Constant, 1, 1, true, false, false},      // 18-byte rows: more than vbmiRowBlocksMax
	} {
		spec := Spec{Mode: c.mode, Before: make([]int, len(c.shape)), After: make([]int, len(c.shape))}
		n := len(c.shape)
		spec.Before[n-1], spec.After[n-1] = c.pad, c.pad
		if !c.rows {
			spec.Before[n-2], spec.After[n-2] = c.pad, c.pad
		}
		p, err := newExecPlan(c.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		withValue(&planeBlocksOn, true, func() {
			tabs := p.tablesFor(c.size)
			tb := tabs.blocks
			if c.rows && tabs.rowBlocks != nil {
				tb = &tabs.rowBlocks.blockTable
			}
			if tb == nil || tb.byAVX2 != c.byAVX2 || tb.avx2Fallback != c.fallback {
				t.Errorf("%v %v size %d: blocks table %v, byAVX2 %v, avx2Fallback %v; want a table, %v, %v",
					c.shape, spec, c.size, tb != nil, tb != nil && tb.byAVX2, tb != nil && tb.avx2Fallback, c.byAVX2, c.fallback)
			}
		})
	}
}

// groupTableCase is a plan whose planes may be made in groups: its shape
// padded by pad on its last two axes, the groups at element size size
// (group 0: none) and their table.
type groupTableCase struct {
	shape         []int
	mode          Mode
	pad, size     int
	group, blocks int
	width, inLen  int
}

// checkGroupTables checks that each case's plan has the groups tableOf
// returns (planes a group, blocks, width, input length and src stride of
// a group, and the Go version of its kernel over n groups; run nil for
// none) as the case says, and that the Go version makes the reference's
// planes.
func checkGroupTables(t *testing.T, r *rand.Rand, cases []groupTableCase, tableOf func(p *Plan, size int) (g planeGroup, blocks, width, inLen int, run func(dst, src []byte, n int, pat *[32]byte))) {
	t.Helper()
	for _, c := range cases {
		spec := Spec{Mode: c.mode, Before: []int{0, 0, c.pad, c.pad}, After: []int{0, 0, c.pad, c.pad}}
		p, err := newExecPlan(c.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		g, blocks, width, inLen, run := tableOf(p, c.size)
		if c.group == 0 {
			if run != nil {
				t.Errorf("%v %v size %d: groups of %d planes, want none", c.shape, spec, c.size, g.planes)
			}
			continue
		}
		if run == nil {
			t.Errorf("%v %v size %d: no groups, want %d planes a group", c.shape, spec, c.size, c.group)
			continue
		}
		plane := c.size * c.shape[2] * c.shape[3]
		if g.planes != c.group || blocks != c.blocks || width != c.width || inLen != c.inLen || g.srcPlane != plane {
			t.Errorf("%v %v size %d: groups of %d planes, %d blocks, width %d, inLen %d, srcPlane %d; want %d, %d, %d, %d, %d",
				c.shape, spec, c.size, g.planes, blocks, width, inLen, g.srcPlane, c.group, c.blocks, c.width, c.inLen, plane)
			continue
		}
		in := randomBytes(r, c.size*prod(c.shape))
		for _, value := range tableValues(r, c.mode, c.size) {
			want, _, _ := refPad(in, c.size, c.shape, spec, value)
			got := make([]byte, len(want))
			run(got, in, c.shape[0]*c.shape[1]/g.planes, valuePattern(value))
			if !bytes.Equal(got, want) {
				t.Errorf("%v %v size %d, value %x: %s", c.shape, spec, c.size, value, gridFirstDiff(got, want))
			}
		}
	}
}

// TestChunkGroupOf checks which planes the chunks kernel makes in groups,
// how many to a group, and that its Go version with a group's table makes
// the reference's planes.
func TestChunkGroupOf(t *testing.T) {
	checkGroupTables(t, rand.New(rand.NewPCG(93, 94)), []groupTableCase{
		{[]int{1, 28, 3, 3}, Edge, 1, 1, 14, 6, 350, 126}, // 128 bytes in at most: 14 planes of 9
		{[]int{1, 16, 4, 4}, Reflect, 1, 1, 8, 5, 288, 128},
		{[]int{1, 8, 4, 4}, Reflect, 1, 2, 4, 5, 288, 128},
		{[]int{1, 10, 2, 3}, Reflect, 1, 4, 5, 7, 400, 120},
		{[]int{2, 5, 2, 5}, Wrap, 3, 1, 5, 7, 440, 50},  // groups across the outer axis
		{[]int{1, 4, 7, 7}, Edge, 1, 1, 0, 0, 0, 0},     // 2 planes, 3 blocks for 4 stores
		{[]int{1, 4, 3, 3}, Edge, 1, 4, 0, 0, 0, 0},     // 3 planes, 5 blocks for 6
		{[]int{1, 8, 4, 4}, Edge, 2, 1, 0, 0, 0, 0},     // 64-byte planes: 8 blocks for 8
		{[]int{1, 8, 4, 4}, Constant, 1, 1, 0, 0, 0, 0}, // takes the value
		{[]int{1, 8, 7, 7}, Edge, 3, 1, 0, 0, 0, 0},     // 169 bytes: the chunks kernel's own
		{[]int{1, 8, 4, 4}, Edge, 1, 8, 0, 0, 0, 0},     // 576 bytes out
	}, func(p *Plan, size int) (planeGroup, int, int, int, func(dst, src []byte, n int, pat *[32]byte)) {
		var g *chunkGroup
		withValue(&planeChunksOn, true, func() { g = p.tablesFor(size).chunkGroups })
		if g == nil {
			return planeGroup{}, 0, 0, 0, nil
		}
		return g.planeGroup, len(g.idx), g.width, g.inLen, func(dst, src []byte, n int, _ *[32]byte) {
			planeChunksGo(dst, src, planes{n, g.width, g.planes * g.srcPlane}, &g.chunkTable)
		}
	})
}

// TestBlockGroupOf checks which planes the blocks kernel makes in groups:
// those that neither shuffle kernel of the levels without VBMI (narrow,
// words) takes a plane a row, and those of at most narrowGroupMax bytes
// out. The Go version of the blocks kernel with a group's table must make
// the reference's planes.
func TestBlockGroupOf(t *testing.T) {
	checkGroupTables(t, rand.New(rand.NewPCG(95, 96)), []groupTableCase{
		{[]int{1, 28, 1, 2}, Edge, 2, 1, 28, 27, 840, 56},      // 2 bytes in: no narrow table
		{[]int{1, 28, 2, 2}, Edge, 2, 1, 0, 0, 0, 0},           // 4 bytes in, 36 out: the narrow table's (C4O32)
		{[]int{1, 24, 7, 7}, Edge, 1, 1, 12, 31, 972, 588},     // 81 bytes out
		{[]int{1, 14, 4, 4}, Reflect, 1, 2, 14, 32, 1008, 448}, // int16 rows of 12 bytes
		{[]int{2, 10, 3, 3}, Wrap, 1, 4, 10, 33, 1000, 360},    // float32, across the outer axis
		{[]int{1, 40, 3, 3}, Edge, 1, 1, 0, 0, 0, 0},           // the narrow table's
		{[]int{1, 64, 2, 2}, Edge, 1, 1, 64, 32, 1024, 256},    // 16 bytes out: the narrow table's too
		{[]int{1, 40, 2, 4}, Edge, 1, 1, 40, 30, 960, 320},     // 24 bytes out (narrowGroupMax)
		{[]int{1, 64, 2, 2}, Reflect, 1, 2, 0, 0, 0, 0},        // 32 bytes out: the narrow table's
		{[]int{1, 10, 3, 3}, Edge, 1, 4, 0, 0, 0, 0},           // the words table's
		{[]int{1, 28, 2, 2}, Constant, 2, 1, 0, 0, 0, 0},       // takes the value
		{[]int{1, 10, 7, 7}, Edge, 3, 1, 0, 0, 0, 0},           // 169 bytes: the blocks kernel's own
	}, blockGroupTable(false))
	// Planes of 2 bytes out whose inputs lie 72 bytes apart: 14 to a group
	// make 28 bytes, less than a block (TestRandomAgainstReference found
	// blockGroupOf building a table for them).
	p, err := newExecPlan([]int{5, 4, 9}, Spec{Mode: Wrap, Before: []int{0, -3, 0}, After: []int{-2, 0, -8}})
	if err != nil {
		t.Fatal(err)
	}
	if g := p.tablesFor(2).blockGroups; g != nil {
		t.Errorf("[5 4 9] cropped to [3 1 1], int16: groups of %d planes, %d bytes out; want none", g.planes, g.width)
	}
	// Planes with no blocks table of their own in runs of 20 (their axis
	// padded too): groups of 20 (segmentRunMax), where 51 fit 1 KiB.
	spec := Spec{Mode: Constant, Before: []int{0, 0, 0, 3}, After: []int{0, 1, 2, 1}}
	if p, err = newExecPlan([]int{4, 20, 2, 1}, spec); err != nil {
		t.Fatal(err)
	}
	if g := p.tablesFor(1).blockGroups; g == nil || g.planes != 20 {
		t.Errorf("[4 20 2 1] %v: groups %v, want of 20 planes", spec, g)
	}
}

// TestValueGroupOf checks which constant planes the blocks kernel makes in
// groups (each byte of the value 0x80 in both shuffles' indexes, its
// pattern's byte in v): those that neither shuffle kernel of the levels
// without VBMI takes a plane a row (or of at most narrowGroupMax bytes
// out), whatever their share of value. The Go version of the blocks kernel
// with a group's table must make the reference's planes with a zero value
// and with a nonzero one.
func TestValueGroupOf(t *testing.T) {
	checkGroupTables(t, rand.New(rand.NewPCG(97, 98)), []groupTableCase{
		{[]int{1, 24, 7, 7}, Constant, 1, 1, 12, 31, 972, 588},
		{[]int{1, 32, 6, 6}, Constant, 1, 1, 16, 32, 1024, 576},
		{[]int{1, 14, 4, 4}, Constant, 1, 2, 14, 32, 1008, 448},
		{[]int{1, 24, 2, 3}, Constant, 1, 4, 12, 30, 960, 288},  // float32
		{[]int{1, 14, 2, 8}, Constant, 2, 1, 14, 32, 1008, 224}, // 56 of 72 bytes the value
		{[]int{1, 40, 1, 1}, Constant, 2, 1, 40, 32, 1000, 40},  // 24 of 25
		{[]int{1, 8, 3, 3}, Constant, 1, 1, 0, 0, 0, 0},         // the narrow table's
		{[]int{1, 40, 2, 2}, Constant, 1, 1, 40, 20, 640, 160},  // 16 bytes out: the narrow table's too
		{[]int{1, 8, 7, 7}, Edge, 1, 1, 0, 0, 0, 0},             // no value: TestBlockGroupOf's
	}, blockGroupTable(true))
}

// blockGroupTable is checkGroupTables' tableOf for the plan's blocks
// groups, those of planes that take the value or those of planes that do
// not.
func blockGroupTable(takesValue bool) func(p *Plan, size int) (planeGroup, int, int, int, func(dst, src []byte, n int, pat *[32]byte)) {
	return func(p *Plan, size int) (planeGroup, int, int, int, func(dst, src []byte, n int, pat *[32]byte)) {
		var g *blockGroup
		withValue(&planeBlocksOn, true, func() { g = p.tablesFor(size).blockGroups })
		if g == nil || g.takesValue != takesValue {
			return planeGroup{}, 0, 0, 0, nil
		}
		return g.planeGroup, len(g.ent), g.width, g.inLen, func(dst, src []byte, n int, pat *[32]byte) {
			planeBlocksGo(dst, src, planes{n, g.width, g.planes * g.srcPlane}, &g.blockTable, pat)
		}
	}
}

// rowTableCase is a rank-2 tensor of cols columns padded on axis 1 whose
// rows may get a row table at element size size: rows of it to a plane of
// the kernel, of blocks blocks, width bytes out and inLen in (rows 0:
// none).
type rowTableCase struct {
	cols          int
	mode          Mode
	before, after int
	size          int
	rows, blocks  int
	width, inLen  int
}

// rowTable is what checkRowTables reads of a row table: its shape, its
// input row stride, and the Go version of its kernel over n planes.
type rowTable struct {
	rows, blocks, width, inLen, srcStride int
	run                                   func(dst, src []byte, n int, pat *[32]byte)
}

// checkRowTables checks that each case's plan has the row table tableOf
// returns (nil for none) as the case says, and that the Go version of its
// kernel over three planes of rows makes the reference's tensor, with a
// zero value and, for constant padding, a nonzero one.
func checkRowTables(t *testing.T, r *rand.Rand, kind string, cases []rowTableCase, tableOf func(p *Plan, size int) *rowTable) {
	t.Helper()
	for _, c := range cases {
		n := 3 // planes of the kernel
		shape := []int{n * max(c.rows, 1), c.cols}
		spec := Spec{Mode: c.mode, Before: []int{0, c.before}, After: []int{0, c.after}}
		p, err := newExecPlan(shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		tb := tableOf(p, c.size)
		if c.rows == 0 {
			if tb != nil {
				t.Errorf("%v %v size %d: a row %s table of %d rows, want none", shape, spec, c.size, kind, tb.rows)
			}
			continue
		}
		if tb == nil || tb.rows != c.rows || tb.blocks != c.blocks || tb.width != c.width || tb.inLen != c.inLen || tb.srcStride != c.cols*c.size {
			t.Errorf("%v %v size %d: row %s table %+v; want %d rows, %d blocks, width %d, inLen %d", shape, spec, c.size, kind, tb, c.rows, c.blocks, c.width, c.inLen)
			continue
		}
		in := randomBytes(r, c.size*prod(shape))
		for _, value := range tableValues(r, c.mode, c.size) {
			want, _, _ := refPad(in, c.size, shape, spec, value)
			got := make([]byte, len(want))
			tb.run(got, in, n, valuePattern(value))
			if !bytes.Equal(got, want) {
				t.Errorf("%v %v size %d, value %x: %s", shape, spec, c.size, value, gridFirstDiff(got, want))
			}
		}
	}
}

// TestRowBlocksOf checks which rows get a row blocks table, how many rows
// to a plane of the blocks kernel, and that its Go version with it makes
// the reference's rows.
func TestRowBlocksOf(t *testing.T) {
	checkRowTables(t, rand.New(rand.NewPCG(99, 100)), "blocks", []rowTableCase{
		{2, Reflect, 1, 0, 1, 320, 30, 960, 640}, // rows of 3 bytes, 320 to a plane of whole blocks
		{4, Edge, 1, 1, 4, 40, 30, 960, 640},
		{10, Edge, -1, 2, 1, 64, 22, 704, 640}, // cropped: sources from the input row's start
		{1, Constant, 1, 1, 2, 160, 30, 960, 320},
		{10, Wrap, 1, 1, 2, 0, 0, 0, 0},       // blocks that make a few bytes each
		{11, Wrap, 0, 2, 1, 64, 34, 832, 704}, // 1.31 blocks per 32 bytes, rows of at most 16 bytes
		{5, Wrap, 0, 1, 4, 0, 0, 0, 0},
		{30, Edge, 1, 1, 1, 0, 0, 0, 0}, // 32-byte rows: more than rowTableMax
	}, func(p *Plan, size int) *rowTable {
		var tb *rowBlockTable
		withValue(&planeBlocksOn, true, func() { tb = p.tablesFor(size).rowBlocks })
		if tb == nil {
			return nil
		}
		return &rowTable{tb.rows, len(tb.ent), tb.width, tb.inLen, tb.srcStride, func(dst, src []byte, n int, pat *[32]byte) {
			planeBlocksGo(dst, src, planes{n, tb.width, tb.rows * tb.srcStride}, &tb.blockTable, pat)
		}}
	})
}

// TestRowChunksOf checks which rows get a row chunks table, how many rows
// to a plane of the chunks kernel, and that its Go version with it makes
// the reference's rows.
func TestRowChunksOf(t *testing.T) {
	checkRowTables(t, rand.New(rand.NewPCG(103, 104)), "chunks", []rowTableCase{
		{2, Reflect, 1, 0, 1, 64, 3, 192, 128}, // 128 bytes in: one permutation a block
		{4, Edge, 1, 1, 4, 8, 3, 192, 128},
		{10, Edge, -1, 2, 1, 12, 3, 132, 120}, // cropped: sources from the input row's start
		{22, Edge, 1, 1, 1, 0, 0, 0, 0},       // five rows to a plane: fewer than rowsChunksMin+1
		{1, Constant, 1, 1, 2, 0, 0, 0, 0},    // takes the value: the blocks kernel's
		{30, Edge, 1, 1, 1, 0, 0, 0, 0},       // 32-byte rows
	}, func(p *Plan, size int) *rowTable {
		var tb *rowChunkTable
		withValue(&planeChunksOn, true, func() { tb = p.tablesFor(size).rowChunks })
		if tb == nil {
			return nil
		}
		return &rowTable{tb.rows, len(tb.idx), tb.width, tb.inLen, tb.srcStride, func(dst, src []byte, n int, _ *[32]byte) {
			planeChunksGo(dst, src, planes{n, tb.width, tb.rows * tb.srcStride}, &tb.chunkTable)
		}}
	})
}

// TestPieceRowChunksOf checks which rows of units get a chunks table of a
// row a plane (pieceRowChunksOf), its width and input length, and that
// the Go version of the kernel with it makes the reference's rows.
func TestPieceRowChunksOf(t *testing.T) {
	r := rand.New(rand.NewPCG(115, 116))
	for _, c := range []struct {
		shape         []int // [rows, units, unit elements]: pads on axis 1
		mode          Mode
		before, after int
		size          int
		width, inLen  int // 0: no table
	}{
		{[]int{5, 11, 22}, Reflect, 3, 3, 1, 374, 242}, // 22-byte units mirrored
		{[]int{5, 8, 9}, Reflect, 3, 1, 2, 216, 144},   // 18-byte units
		{[]int{5, 6, 3}, Reflect, 3, 1, 8, 240, 144},   // 24-byte units
		{[]int{5, 4, 4}, Reflect, 1, 1, 4, 0, 0},       // 16-byte units: the reverse kernel's
		{[]int{5, 11, 22}, Edge, 3, 3, 1, 0, 0},        // edge rows: the rows kernels'
		{[]int{5, 11, 22}, Wrap, 3, 3, 1, 0, 0},        // wrapped rows: the rows kernels'
		{[]int{5, 2, 20}, Reflect, 1, 0, 1, 0, 0},      // 60 bytes out: the shuffle kernel's
		{[]int{5, 12, 22}, Reflect, 3, 3, 1, 0, 0},     // 264 bytes in
		{[]int{5, 11, 22}, Constant, 3, 3, 1, 0, 0},    // the value
	} {
		spec := Spec{Mode: c.mode, Before: []int{0, c.before, 0}, After: []int{0, c.after, 0}}
		p, err := newExecPlan(c.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		var tb *rowChunkTable
		withValue(&planeChunksOn, true, func() { tb = p.tablesFor(c.size).rowChunks })
		if c.width == 0 {
			if tb != nil && tb.rows == 1 {
				t.Errorf("%v %v size %d: a chunks table of a row a plane, want none", c.shape, spec, c.size)
			}
			continue
		}
		if tb == nil || tb.rows != 1 || tb.width != c.width || tb.inLen != c.inLen || tb.srcStride != c.inLen {
			t.Errorf("%v %v size %d: row chunks table %+v; want a row a plane, width %d, inLen %d", c.shape, spec, c.size, tb, c.width, c.inLen)
			continue
		}
		in := randomBytes(r, c.size*prod(c.shape))
		want, _, _ := refPad(in, c.size, c.shape, spec, nil)
		got := make([]byte, len(want))
		planeChunksGo(got, in, planes{c.shape[0], tb.width, tb.srcStride}, &tb.chunkTable)
		if !bytes.Equal(got, want) {
			t.Errorf("%v %v size %d: %s", c.shape, spec, c.size, gridFirstDiff(got, want))
		}
	}
}
