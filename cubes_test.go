package pad

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestCubeTables checks which plans get cube tables (cubeTablesOf), their
// widths, input lengths and group sizes, and that the Go versions of the
// blocks and chunks kernels with them make the reference's cubes, with a
// zero value and, for constant padding, a nonzero one.
func TestCubeTables(t *testing.T) {
	r := rand.New(rand.NewPCG(111, 112))
	for _, c := range []struct {
		shape         []int
		mode          Mode
		before, after []int
		size          int
		width, inLen  int  // of a cube; width 0: no tables
		blocks        bool // a blocks table for a cube
		blockGroup    int  // cubes a group of the blocks kernel, 0: none
		chunks        bool // a chunks table for a cube
		chunkGroup    int  // cubes a group of the chunks kernel
	}{
		// [3220, 3, 3, 7]: 63-byte cubes from 12, too few in for a
		// blocks table; 16 to a group of 1 KiB, 8 to one of at most 128
		// bytes in.
		{[]int{3220, 2, 2, 3}, Reflect, []int{0, 0, 0, 2}, []int{0, 1, 1, 2}, 1, 63, 12, false, 16, false, 8},
		{[]int{1896, 3, 1, 2}, Constant, []int{3, 0, 2, 1}, []int{0, 0, 3, 1}, 1, 72, 6, false, 14, false, 0}, // the value: no chunks
		{[]int{730, 2, 3, 3}, Reflect, []int{2, 0, 0, 2}, []int{2, 0, 2, 0}, 4, 200, 72, true, 0, true, 0},
		{[]int{50, 18, 2, 6}, Edge, []int{1, 0, 0, 1}, []int{2, 0, 1, 0}, 1, 378, 216, true, 0, true, 0},  // 54 rows, 6 blocks
		{[]int{8, 3, 2, 40}, Edge, []int{0, 1, 1, 1}, []int{0, 1, 1, 1}, 1, 840, 240, true, 0, false, 0},  // 42-byte rows in 840 bytes
		{[]int{44, 2, 12, 2}, Wrap, []int{0, 1, 0, 1}, []int{0, 0, 1, 1}, 4, 624, 192, true, 0, false, 0}, // more than 512 bytes
		{[]int{10, 4, 4, 4}, Symmetric, []int{0, 1, 1, 1}, []int{0, 1, 1, 1}, 2, 432, 128, true, 0, true, 0},
		{[]int{64, 2, 3, 2}, Constant, []int{0, 1, 1, 1}, []int{0, 1, 1, 1}, 8, 640, 96, true, 0, false, 0},
		{[]int{8, 6, 12, 12}, Edge, []int{0, 1, 1, 1}, []int{0, 1, 1, 1}, 1, 1568, 864, true, 0, false, 0},    // 1568 bytes out of 14-byte rows
		{[]int{8, 5, 6, 30}, Wrap, []int{0, 0, 1, 1}, []int{0, 1, 1, 2}, 2, 0, 0, false, 0, false, 0},         // 3168 bytes of 66-byte rows
		{[]int{8, 6, 36, 12}, Edge, []int{0, 1, 1, 1}, []int{0, 1, 1, 1}, 1, 0, 0, false, 0, false, 0},        // 4256 bytes out
		{[]int{64, 2, 2, 40}, Constant, []int{0, 1, 1, 1}, []int{0, 1, 1, 1}, 1, 672, 160, true, 0, false, 0}, // 42-byte rows that take the value
		{[]int{64, 2, 3, 4}, Edge, []int{0, 0, 0, 0}, []int{0, 0, 0, 0}, 1, 0, 0, false, 0, false, 0},         // no pads: one level
	} {
		spec := Spec{Mode: c.mode, Before: c.before, After: c.after}
		p, err := newExecPlan(c.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		var ct *cubeTables
		withValue(&planeBlocksOn, true, func() {
			withValue(&planeChunksOn, true, func() { ct = p.tablesFor(c.size).cubes })
		})
		if c.width == 0 {
			if ct != nil {
				t.Errorf("%v %v size %d: cube tables %+v, want none", c.shape, spec, c.size, *ct)
			}
			continue
		}
		if ct == nil {
			t.Errorf("%v %v size %d: no cube tables", c.shape, spec, c.size)
			continue
		}
		groupOf := func(g planeGroup, width int) int {
			if width != g.planes*c.width || g.srcPlane != c.size*prod(c.shape[1:]) {
				return -1
			}
			return g.planes
		}
		var blocks, chunks bool
		var blockGroup, chunkGroup int
		if b := ct.blocks; b != nil {
			blocks = b.width == c.width && b.inLen == c.inLen && b.byAVX2
		}
		if ch := ct.chunks; ch != nil {
			chunks = ch.width == c.width && ch.inLen == c.inLen
		}
		if g := ct.blockGroups; g != nil {
			blockGroup = groupOf(g.planeGroup, g.width)
		}
		if g := ct.chunkGroups; g != nil {
			chunkGroup = groupOf(g.planeGroup, g.width)
		}
		if blocks != c.blocks || blockGroup != c.blockGroup || chunks != c.chunks || chunkGroup != c.chunkGroup {
			t.Errorf("%v %v size %d: blocks table %v, groups of %d, chunks table %v, groups of %d; want %v, %d, %v, %d (cubes of %d bytes from %d)",
				c.shape, spec, c.size, blocks, blockGroup, chunks, chunkGroup, c.blocks, c.blockGroup, c.chunks, c.chunkGroup, c.width, c.inLen)
			continue
		}
		in := randomBytes(r, c.size*prod(c.shape))
		n, cube := c.shape[0], c.size*prod(c.shape[1:])
		for _, value := range tableValues(r, c.mode, c.size) {
			want, _, _ := refPad(in, c.size, c.shape, spec, value)
			// The cubes from the input, past those of the value before them.
			want = want[c.before[0]*c.width : (c.before[0]+n)*c.width]
			pat := valuePattern(value)
			check := func(what string, cubes int, run func(got []byte, pl planes)) {
				got := make([]byte, n/cubes*cubes*c.width)
				run(got, planes{n / cubes, cubes * c.width, cubes * cube})
				if !bytes.Equal(got, want[:len(got)]) {
					t.Errorf("%v %v size %d, value %x, %s: %s", c.shape, spec, c.size, value, what, gridFirstDiff(got, want[:len(got)]))
				}
			}
			if c.blocks {
				check("blocks", 1, func(got []byte, pl planes) { planeBlocksGo(got, in, pl, ct.blocks, pat) })
			}
			if c.blockGroup > 0 {
				check("blocks in groups", c.blockGroup, func(got []byte, pl planes) { planeBlocksGo(got, in, pl, &ct.blockGroups.blockTable, pat) })
			}
			if c.chunks {
				check("chunks", 1, func(got []byte, pl planes) { planeChunksGo(got, in, pl, ct.chunks) })
			}
			if c.chunkGroup > 0 {
				check("chunks in groups", c.chunkGroup, func(got []byte, pl planes) { planeChunksGo(got, in, pl, &ct.chunkGroups.chunkTable) })
			}
		}
	}
}
