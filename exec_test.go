package pad

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// acrossSpy is the index-map kernels (typedKernels[int32], as indexMap
// runs them) with sub-tensors made across in batches of batch, counting
// the fill calls.
type acrossSpy struct {
	typedKernels[int32]
	batch int
	calls *int
}

func (k acrossSpy) acrossBatch(int) int { return k.batch }

func (k acrossSpy) fill(off, n int) {
	*k.calls++
	k.typedKernels.fill(off, n)
}

func (k acrossSpy) fills(off, n, count, stride int) {
	*k.calls++
	for p := range count {
		k.typedKernels.fill(off+p*stride, n)
	}
}

// TestAcross runs random plans of rank 3 to 6 (every mode, crops,
// interior padding, both orders; half of them of small sub-tensors)
// through the executor on index maps, with sub-tensors made across in
// batches of 2 to 1000 and one after the other, against the reference;
// and fails unless across saved fill calls in a share of them, so that it
// cannot pass by not going across.
func TestAcross(t *testing.T) {
	r := rand.New(rand.NewPCG(131, 132))
	cases, saved := 3000, 0
	if testing.Short() {
		cases /= 5
	}
	for range cases {
		c := rtGenValid(r)
		if r.IntN(2) == 0 { // small sub-tensors, most of them padded
			c.shape = make([]int, 3+r.IntN(3))
			for a := range c.shape {
				c.shape[a] = 1 + r.IntN(6)
			}
			c.shape[0] = 1 + r.IntN(40)
			mode := Constant // fills, whose calls the spy counts, in half of them
			if r.IntN(2) == 0 {
				mode = Mode(r.IntN(int(Symmetric) + 1))
			}
			c.spec = rtGenValidFor(r, c.shape, mode)
		}
		if len(c.shape) < 3 {
			continue
		}
		p, err := newExecPlan(c.shape, c.spec)
		if err != nil {
			t.Fatal(err)
		}
		if p.outLen == 0 {
			continue
		}
		src := make([]int32, p.inLen) // the input's indices; the value -1
		for i := range src {
			src[i] = int32(i)
		}
		want, _, err := rtExpectIdx(c, src, -1)
		if err != nil {
			t.Fatal(err)
		}
		var fills [2]int
		for i, batch := range []int{1, 2 + r.IntN(7), 1000} {
			calls := 0
			got := make([]int32, p.outLen)
			execute(acrossSpy{typedKernels[int32]{got, src, -1}, batch, &calls}, p.levels, p.strides, 1, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("%v, batch %d: index map\n got %v\nwant %v", c, batch, got, want)
			}
			if i < 2 {
				fills[i] = calls
			}
		}
		if fills[1] < fills[0] {
			saved++
		}
	}
	if saved < cases/50 {
		t.Fatalf("across saved fill calls in %d of %d plans", saved, cases)
	}
	t.Logf("across saved fill calls in %d of %d plans", saved, cases)
}
