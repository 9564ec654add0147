package pad

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestEndsWordsTables builds the word ends tables of random rows (every
// mode, elements of 4, 8 and 16 bytes, pads of up to 32 bytes on each side,
// crops too) as plans do, and checks that the Go version of the kernel
// makes the reference's rows by them; rows whose pads read only within the
// input row's first and last 32 bytes must get a table.
func TestEndsWordsTables(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	tables := 0
	for range 3000 {
		es := []int{4, 8, 16}[r.IntN(3)]
		w := max(1, (32+r.IntN(400))/es)
		lp, rp := r.IntN(32/es+1), r.IntN(32/es+1)
		mode := []Mode{Constant, Edge, Reflect, Symmetric, Wrap}[r.IntN(5)]
		if mode == Reflect {
			lp, rp = min(lp, w-1), min(rp, w-1)
		}
		if r.IntN(4) == 0 && w > 8 {
			lp = -r.IntN(3)
		}
		shape := []int{1 + r.IntN(3), w}
		spec := Spec{Mode: mode, Before: []int{0, lp}, After: []int{0, rp}}
		p, err := newExecPlan(shape, spec, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, es*prod(shape))
		value := randomBytes(r, es)
		want, outShape, err := refPad(in, es, shape, spec, value)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.levels) == 0 {
			continue // a copy
		}
		lv := &p.levels[len(p.levels)-1]
		_, _, ends, tab, _ := rowTables(lv, p.strides[len(p.levels)-1], es)
		width, mid, left := outShape[1]*es, (w+min(lp, 0))*es, max(lp, 0)*es
		fits := endsWordsFits(width, mid, left) && ends == nil
		if mode == Wrap && lp < 0 {
			fits = false // the crop moves the wrapped pads off the windows
		}
		if fits && tab == nil {
			t.Fatalf("%v %v (%d-byte elements): table %v", shape, spec, es, tab != nil)
		}
		if tab == nil {
			continue
		}
		tables++
		pat := patternOf(value)
		got := make([]byte, len(want))
		rowsEndsWordsGo(got, in[(-min(lp, 0))*es:], shape[0], width, w*es, width, mid, left, tab, pat)
		if !bytes.Equal(got, want) {
			t.Fatalf("%v %v (%d-byte elements): the Go version by the table differs from the reference", shape, spec, es)
		}
	}
	if tables < 500 {
		t.Fatalf("only %d rows had tables", tables)
	}
	t.Logf("%d tables", tables)
}
