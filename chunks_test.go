package pad

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestChunkTableOf checks which planes get a block table and that the Go
// version of the chunks kernel with it makes the reference's planes.
func TestChunkTableOf(t *testing.T) {
	r := rand.New(rand.NewPCG(65, 66))
	cases := []struct {
		shape        []int
		mode         Mode
		pad, size    int
		blocks       int // 0: no table
		width, inLen int
	}{
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
	}
	for _, c := range cases {
		spec := Spec{Mode: c.mode, Before: []int{0, 0, c.pad, c.pad}, After: []int{0, 0, c.pad, c.pad}}
		p, err := newExecPlan(c.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		var tb *chunkTable
		withValue(&planeChunksOn, true, func() { tb = p.tablesFor(c.size).chunks })
		if c.blocks == 0 {
			if tb != nil {
				t.Errorf("%v %v size %d: a chunk table of %d blocks, want none", c.shape, spec, c.size, len(tb.idx))
			}
			continue
		}
		if tb == nil || len(tb.idx) != c.blocks || tb.width != c.width || tb.inLen != c.inLen {
			t.Errorf("%v %v size %d: table %+v, want %d blocks, width %d, inLen %d", c.shape, spec, c.size, tb, c.blocks, c.width, c.inLen)
			continue
		}
		in := randomBytes(r, c.size*prod(c.shape))
		want, _, _ := refPad(in, c.size, c.shape, spec, nil)
		n := c.shape[0] * c.shape[1]
		got := make([]byte, n*tb.width)
		planeChunksGo(got, in, planes{n, tb.width, tb.inLen}, tb)
		if !bytes.Equal(got, want) {
			t.Errorf("%v %v size %d: %s", c.shape, spec, c.size, gridFirstDiff(got, want))
		}
	}
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
	r := rand.New(rand.NewPCG(75, 76))
	cases := []struct {
		shape        []int
		mode         Mode
		pad, size    int
		blocks       int // 0: no table
		width, inLen int
	}{
		{[]int{1, 5, 7, 7}, Edge, 1, 1, 3, 81, 49},
		{[]int{1, 5, 7, 7}, Reflect, 3, 1, 6, 169, 49},
		{[]int{2, 3, 7, 7}, Edge, 1, 2, 6, 162, 98},
		{[]int{1, 4, 14, 14}, Wrap, 1, 1, 8, 256, 196},
		{[]int{1, 4, 14, 14}, Edge, 4, 1, 16, 484, 196},
		{[]int{1, 4, 3, 3}, Symmetric, 2, 2, 4, 98, 18},
		{[]int{1, 4, 4, 14}, Wrap, 1, 1, 3, 96, 56},
		{[]int{1, 4, 14, 14}, Edge, 5, 1, 18, 576, 196},
		{[]int{1, 4, 14, 14}, Edge, 10, 1, 0, 0, 0},    // 1156 bytes: more than blocksMax blocks
		{[]int{1, 4, 7, 7}, Constant, 1, 1, 0, 0, 0},   // takes the value
		{[]int{1, 4, 4, 4}, Edge, 1, 1, 0, 0, 0},       // 36 bytes from 16: the plane's narrow table
		{[]int{1, 4, 3, 3}, Edge, 2, 1, 0, 0, 0},       // 9 bytes of input
		{[]int{1, 4, 7, 7}, Edge, 1, 4, 0, 0, 0},       // 36-byte rows
		{[]int{1, 4, 6, 28}, Reflect, 1, 1, 0, 0, 0},   // 30-byte rows, the first from input row 1, the second from row 0
		{[]int{2, 3, 7, 7}, Reflect, 2, 2, 8, 242, 98}, // a block of the last rows starts earlier
		{[]int{1, 4, 10, 10}, Wrap, 1, 1, 0, 0, 0},     // every block around row 1 takes from input rows 9, 0 and 1
		{[]int{1, 4, 6, 20}, Wrap, 2, 1, 0, 0, 0},      // a block of rows 1 to 3 takes from input rows 5, 0 and 1
	}
	for _, c := range cases {
		spec := Spec{Mode: c.mode, Before: []int{0, 0, c.pad, c.pad}, After: []int{0, 0, c.pad, c.pad}}
		p, err := newExecPlan(c.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		var tb *blockTable
		withValue(&planeBlocksOn, true, func() { tb = p.tablesFor(c.size).blocks })
		if c.blocks == 0 {
			if tb != nil {
				t.Errorf("%v %v size %d: a blocks table of %d blocks, want none", c.shape, spec, c.size, len(tb.ent))
			}
			continue
		}
		if tb == nil || len(tb.ent) != c.blocks || tb.width != c.width || tb.inLen != c.inLen {
			t.Errorf("%v %v size %d: table %+v, want %d blocks, width %d, inLen %d", c.shape, spec, c.size, tb, c.blocks, c.width, c.inLen)
			continue
		}
		in := randomBytes(r, c.size*prod(c.shape))
		want, _, _ := refPad(in, c.size, c.shape, spec, nil)
		n := c.shape[0] * c.shape[1]
		got := make([]byte, n*tb.width)
		planeBlocksGo(got, in, planes{n, tb.width, tb.inLen}, tb)
		if !bytes.Equal(got, want) {
			t.Errorf("%v %v size %d: %s", c.shape, spec, c.size, gridFirstDiff(got, want))
		}
	}
}
