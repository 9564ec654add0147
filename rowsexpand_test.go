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
