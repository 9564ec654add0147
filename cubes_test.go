package pad

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestCubeTables checks which plans get cube tables (cubeTables), their
// widths, input lengths and group sizes, and that the Go version of the
// blocks kernel with them makes the reference's cubes, with a zero value
// and, for constant padding, a nonzero one.
func TestCubeTables(t *testing.T) {
	r := rand.New(rand.NewPCG(111, 112))
	for _, c := range []struct {
		shape         []int
		mode          Mode
		before, after []int
		size          int
		width, inLen  int // of a cube; width 0: no tables
		one           bool
		group         int // cubes a group, 0: none
	}{
		// [3220, 3, 3, 7]: 63-byte cubes from 12, too few for one, 16 a group.
		{[]int{3220, 2, 2, 3}, Reflect, []int{0, 0, 0, 2}, []int{0, 1, 1, 2}, 1, 63, 12, false, 16},
		{[]int{1896, 3, 1, 2}, Constant, []int{3, 0, 2, 1}, []int{0, 0, 3, 1}, 1, 72, 6, false, 14},
		{[]int{730, 2, 3, 3}, Reflect, []int{2, 0, 0, 2}, []int{2, 0, 2, 0}, 4, 200, 72, true, 0},
		{[]int{50, 18, 2, 6}, Edge, []int{1, 0, 0, 1}, []int{2, 0, 1, 0}, 1, 378, 216, true, 0},
		{[]int{44, 2, 12, 2}, Wrap, []int{0, 1, 0, 1}, []int{0, 0, 1, 1}, 4, 624, 192, true, 0},
		{[]int{10, 4, 4, 4}, Symmetric, []int{0, 1, 1, 1}, []int{0, 1, 1, 1}, 2, 432, 128, true, 0},
		{[]int{64, 2, 3, 2}, Constant, []int{0, 1, 1, 1}, []int{0, 1, 1, 1}, 8, 640, 96, true, 0},
		{[]int{8, 6, 12, 12}, Edge, []int{0, 1, 1, 1}, []int{0, 1, 1, 1}, 1, 0, 0, false, 0},        // 1568 bytes out
		{[]int{64, 2, 2, 40}, Edge, []int{0, 1, 1, 1}, []int{0, 1, 1, 1}, 1, 0, 0, false, 0},        // 42-byte rows
		{[]int{64, 2, 2, 40}, Constant, []int{0, 1, 1, 1}, []int{0, 1, 1, 1}, 1, 672, 160, true, 0}, // ... that take the value
		{[]int{64, 2, 3, 4}, Edge, []int{0, 0, 0, 0}, []int{0, 0, 0, 0}, 1, 0, 0, false, 0},         // no pads: one level
	} {
		spec := Spec{Mode: c.mode, Before: c.before, After: c.after}
		p, err := newExecPlan(c.shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		var tabs *sizeTables
		withValue(&planeBlocksOn, true, func() { tabs = p.tablesFor(c.size) })
		one, groups := tabs.cubes, tabs.cubeGroups
		if c.width == 0 {
			if one != nil || groups != nil {
				t.Errorf("%v %v size %d: cube tables %v and %v, want none", c.shape, spec, c.size, one != nil, groups != nil)
			}
			continue
		}
		if (one != nil) != c.one || one != nil && (one.width != c.width || one.inLen != c.inLen || !one.byAVX2) ||
			(groups != nil) != (c.group > 0) || groups != nil && (groups.planes != c.group || groups.width != c.group*c.width) {
			var w, in, g int
			if one != nil {
				w, in = one.width, one.inLen
			}
			if groups != nil {
				g = groups.planes
			}
			t.Errorf("%v %v size %d: cube table %v (width %d, inLen %d), groups of %d; want %v (width %d, inLen %d), groups of %d",
				c.shape, spec, c.size, one != nil, w, in, g, c.one, c.width, c.inLen, c.group)
			continue
		}
		in := randomBytes(r, c.size*prod(c.shape))
		for _, value := range tableValues(r, c.mode, c.size) {
			want, _, _ := refPad(in, c.size, c.shape, spec, value)
			// The cubes from the input, past those of the value before them.
			n, cube := c.shape[0], c.size*prod(c.shape[1:])
			want = want[c.before[0]*c.width : (c.before[0]+n)*c.width]
			if one != nil {
				got := make([]byte, len(want))
				planeBlocksGo(got, in, planes{n, c.width, cube}, one, valuePattern(value))
				if !bytes.Equal(got, want) {
					t.Errorf("%v %v size %d, value %x, a cube at a time: %s", c.shape, spec, c.size, value, gridFirstDiff(got, want))
				}
			}
			if groups != nil {
				g := n / groups.planes
				got := make([]byte, g*groups.width)
				planeBlocksGo(got, in, planes{g, groups.width, groups.srcPlane * groups.planes}, &groups.blockTable, valuePattern(value))
				if !bytes.Equal(got, want[:len(got)]) {
					t.Errorf("%v %v size %d, value %x, in groups: %s", c.shape, spec, c.size, value, gridFirstDiff(got, want[:len(got)]))
				}
			}
		}
	}
}
