package pad

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestExpandTable checks the expand tables' masks byte by byte against
// their definition (a byte of a plane is taken when it falls in a row's
// input bytes), the period (a multiple of the plane and of 64 bytes, eight
// masks at least) and the copies after it.
func TestExpandTable(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 500 {
		left, mid, right := r.IntN(9), 1+r.IntN(70), r.IntN(9)
		width, rows := left+mid+right, 1+r.IntN(12)
		top, bottom := width*r.IntN(3), width*r.IntN(3)
		plane := top + rows*width + bottom
		tab := newExpandTable(plane, rows, width, left, mid, top)
		if tab == nil {
			t.Fatalf("plane %d: no table", plane)
		}
		if tab.period%plane != 0 || tab.period%64 != 0 || tab.entries != tab.period/64 || tab.entries < expandCopies+1 || len(tab.masks) != tab.entries+expandCopies {
			t.Fatalf("plane %d: period %d, %d entries, %d masks", plane, tab.period, tab.entries, len(tab.masks))
		}
		for o := range tab.period + expandCopies*64 {
			q := o % tab.period % plane
			c := (q - top) % width
			want := q >= top && q < top+rows*width && c >= left && c < left+mid
			if got := tab.masks[o/64]>>(o%64)&1 != 0; got != want {
				t.Fatalf("plane %d (top %d, %d rows of %d+%d+%d): byte %d taken %v, want %v", plane, top, rows, left, mid, right, o, got, want)
			}
		}
	}
	// The word masks: present when every 4-byte word is taken whole or
	// not at all (4-byte elements always), each bit that word's.
	words := 0
	for range 300 {
		es := []int{1, 2, 4, 8}[r.IntN(4)]
		left, mid, right := es*r.IntN(3), es*(1+r.IntN(20)), es*r.IntN(3)
		width, rows := left+mid+right, 1+r.IntN(12)
		top := width * r.IntN(3)
		plane := top + rows*width + width*r.IntN(3)
		tab := newExpandTable(plane, rows, width, left, mid, top)
		whole := true
		for w := range tab.period / 4 {
			n := bits.OnesCount64(tab.masks[w/16] >> (4 * (w % 16)) & 15)
			whole = whole && (n == 0 || n == 4)
		}
		if (tab.dwords != nil) != whole || es >= 4 && !whole {
			t.Fatalf("%d-byte elements, plane %d: words taken whole %v, word masks %v", es, plane, whole, tab.dwords != nil)
		}
		if tab.dwords == nil {
			continue
		}
		words++
		if len(tab.dwords) != 2*(tab.entries+expandCopies) {
			t.Fatalf("plane %d: %d word masks for %d masks", plane, len(tab.dwords), tab.entries)
		}
		if !bytes.Equal(tab.dwords[2*tab.entries:], tab.dwords[:2*expandCopies]) {
			t.Fatalf("plane %d: word masks end with %x, not copies of the first ones %x", plane, tab.dwords[2*tab.entries:], tab.dwords[:2*expandCopies])
		}
		for w := range tab.period / 4 {
			if got, want := tab.dwords[w/8]>>(w%8)&1, byte(tab.masks[w/16]>>(4*(w%16))&1); got != want {
				t.Fatalf("plane %d: word %d taken %d, its bytes %d", plane, w, got, want)
			}
		}
	}
	if words < 100 {
		t.Fatalf("only %d of 300 tables have word masks", words)
	}
	if tab := newExpandTable(64*expandMaxEntries+4, 1, 4, 0, 4, 0); tab != nil {
		t.Fatalf("a period over %d masks has a table", expandMaxEntries)
	}
}

// TestCubeExpandTable checks which cubes take an expand table of their
// own (cubeExpandOf), its masks byte by byte against the definition (a
// byte of a cube is taken when it falls in an input plane's input row's
// input bytes), and the plan's output against the reference's. Cubes that are not pad planes around all their input
// planes, each pad rows around all its input rows, take none.
func TestCubeExpandTable(t *testing.T) {
	for _, c := range []struct {
		shape         []int
		before, after []int
		mode          Mode
		size          int
		table         bool
	}{
		{[]int{4, 3, 5, 6}, []int{0, 1, 1, 2}, []int{0, 2, 1, 0}, Constant, 4, true},
		{[]int{4, 3, 5, 6}, []int{0, 1, 1, 2}, []int{0, 2, 1, 0}, Constant, 1, true},
		{[]int{6, 35, 1, 35}, []int{0, 0, 1, 1}, []int{0, 2, 0, 0}, Constant, 2, true}, // pad planes after only
		{[]int{4, 3, 5, 6}, []int{0, 0, 1, 2}, []int{0, 0, 1, 0}, Constant, 4, false},  // no pad plane: planes
		{[]int{4, 3, 5, 6}, []int{0, -1, 1, 2}, []int{0, 2, 1, 0}, Constant, 4, false}, // a crop of planes
		{[]int{4, 3, 5, 6}, []int{0, 1, -1, 2}, []int{0, 2, 2, 0}, Constant, 4, false}, // of rows
		{[]int{4, 3, 5, 6}, []int{0, 1, 1, -1}, []int{0, 2, 1, 2}, Constant, 4, false}, // of a row's elements
		{[]int{4, 3, 5, 6}, []int{0, 1, 1, 2}, []int{0, 2, 1, 0}, Edge, 4, false},
		{[]int{2, 33, 2, 8}, []int{0, 3, 3, 2}, []int{0, 1, 2, 1}, Constant, 4, true},   // a period of 178 KiB: the two cubes only
		{[]int{12, 33, 2, 8}, []int{0, 3, 3, 2}, []int{0, 1, 2, 1}, Constant, 4, false}, // 12 are past 2048 masks
		{[]int{4, 1, 10, 10}, []int{0, 1, 1, 1}, []int{0, 2, 1, 1}, Constant, 4, true},  // one input plane of 576 bytes
		{[]int{4, 1, 40, 40}, []int{0, 1, 1, 1}, []int{0, 2, 1, 1}, Constant, 4, false}, // of 7056 (cubeExpandPlaneMax)
	} {
		p, err := NewPlan(c.shape, Spec{Mode: c.mode, Before: c.before, After: c.after})
		if err != nil {
			t.Fatal(err)
		}
		n := len(p.levels)
		var tab *expandTable
		if n >= 4 {
			tab = cubeExpandOf(&p.levels[n-3], &p.levels[n-2], &p.levels[n-1], p.strides[n-3], p.strides[n-2], c.size, c.shape[0])
		}
		if (tab != nil) != c.table {
			t.Errorf("%v %v %v %v: cube table %v, want %v", c.shape, c.before, c.after, c.mode, tab != nil, c.table)
		}
		// The plan's output, twice (the second run with the periodic
		// tables), against the reference's.
		spec := Spec{Mode: c.mode, Before: c.before, After: c.after}
		ep, err := newExecPlan(c.shape, spec, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		in := make([]byte, c.size*prod(c.shape))
		for i := range in {
			in[i] = byte(7*i + 1)
		}
		value := []byte{3, 1, 4, 1, 5, 9, 2, 6}[:c.size]
		want, _, err := refPad(in, c.size, c.shape, spec, value)
		if err != nil {
			t.Fatal(err)
		}
		for run := range 2 {
			got := make([]byte, len(want))
			if err := ep.RunBytes(got, in, c.size, value); err != nil || !bytes.Equal(got, want) {
				t.Errorf("%v %v %v %v, run %d: output differs from the reference (%v)", c.shape, c.before, c.after, c.mode, run, err)
			}
		}
		if tab == nil {
			continue
		}
		k := len(c.shape)
		out := make([]int, k)
		for a := range k {
			out[a] = c.shape[a] + c.before[a] + c.after[a]
		}
		plane, width := out[2]*out[3]*c.size, out[3]*c.size
		if tab.plane != out[1]*plane || tab.rows != c.shape[1]*c.shape[2] || tab.mid != c.shape[3]*c.size || tab.width != width {
			t.Errorf("%v: cube %d bytes, %d input rows of %d bytes, rows of %d; want %d, %d, %d, %d", c.shape, tab.plane, tab.rows, tab.mid, tab.width,
				out[1]*plane, c.shape[1]*c.shape[2], c.shape[3]*c.size, width)
		}
		// A period of whole cubes, or of the plan's cubes and no more.
		periodic := tab.most == 0 && tab.period%tab.plane == 0
		bounded := tab.most == c.shape[0] && lcm(tab.plane, 64) > 64*expandMaxEntries && tab.period == (tab.most*tab.plane+63)&^63
		if !periodic && !bounded || tab.period%64 != 0 || len(tab.masks) != tab.entries+expandCopies {
			t.Errorf("%v: period %d (%d cubes at most), %d masks for %d entries", c.shape, tab.period, tab.most, len(tab.masks), tab.entries)
		}
		for o := range tab.period + expandCopies*64 {
			q := o % tab.period % tab.plane
			pl, row, col := q/plane-c.before[1], q%plane/width-c.before[2], q%width/c.size-c.before[3]
			want := pl >= 0 && pl < c.shape[1] && row >= 0 && row < c.shape[2] && col >= 0 && col < c.shape[3] &&
				(tab.most == 0 || o%tab.period < tab.most*tab.plane)
			if got := tab.masks[o/64]>>(o%64)&1 != 0; got != want {
				t.Fatalf("%v %v %v size %d: byte %d taken %v, want %v", c.shape, c.before, c.after, c.size, o, got, want)
			}
		}
	}
}

// TestExpandTableBounded checks the tables of planes whose period needs
// more than expandMaxEntries masks: a plan whose planes fit in them has a
// table of those planes only (expandTable.most), their masks byte by byte
// and none after them; a plan of more planes has none.
func TestExpandTableBounded(t *testing.T) {
	for _, c := range []struct {
		planes int
		table  bool
	}{{1, true}, {8, true}, {61, true}, {62, false}} {
		// uint8 planes of 45x47 bytes: 2115, odd, a period of 2115 masks.
		shape, spec := []int{c.planes, 43, 45}, Spec{Mode: Constant, Before: []int{0, 1, 1}, After: []int{0, 1, 1}}
		p, err := NewPlan(shape, spec)
		if err != nil {
			t.Fatal(err)
		}
		n := len(p.levels)
		tab := expandOf(&p.levels[n-2], &p.levels[n-1], p.strides[n-2], 1, c.planes)
		if (tab != nil) != c.table {
			t.Fatalf("%d planes: table %v, want %v", c.planes, tab != nil, c.table)
		}
		if tab == nil {
			continue
		}
		const plane, width = 45 * 47, 47
		if tab.most != c.planes || tab.plane != plane || tab.period != max((c.planes*plane+63)&^63, 64*(expandCopies+1)) || tab.inBytes() != c.planes*43*45 {
			t.Fatalf("%d planes: %d at most, plane %d, period %d, %d input bytes", c.planes, tab.most, tab.plane, tab.period, tab.inBytes())
		}
		for o := range tab.period {
			q := o % plane
			row, col := q/width-1, q%width-1
			want := o < c.planes*plane && row >= 0 && row < 43 && col >= 0 && col < 45
			if got := tab.masks[o/64]>>(o%64)&1 != 0; got != want {
				t.Fatalf("%d planes: byte %d taken %v, want %v", c.planes, o, got, want)
			}
		}
	}
}

// rowsExpandGo is the Go version of the expand kernel (KERNELS.md item
// 11), for the tests: n bytes of dst by the masks of tab, entries of them
// repeating.
func rowsExpandGo(dst, src []byte, n int, tab []uint64, entries int, pat *[32]byte) {
	s := 0
	for o := range n {
		if tab[o/64%entries]>>(o%64)&1 != 0 {
			dst[o] = src[s]
			s++
		} else {
			dst[o] = pat[o%32]
		}
	}
}
