//go:build amd64 && unix && gc && !purego && !noasm

package pad

// Tests of the pieces kernel (rowsPiecesAVX2) against its Go version:
// random pieces of 0 to 200 bytes anywhere in rows between canaries, with
// gaps between rows and broadcast src rows, then against PROT_NONE pages;
// a fuzz target; plans whose rows take it (edge-padded and mirrored units
// of sizes the rows kernels do not take) at every level against the
// reference, and the calls they make.

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

type piecesCase struct {
	rowsGeometry
	tab []int32
}

func (c *piecesCase) String() string {
	return fmt.Sprintf("%v pieces %v", &c.rowsGeometry, c.tab)
}

// piecesGo is the kernel's Go version (its doc comment's loop).
func piecesGo(dst, src []byte, rows, dstStride, srcStride int, tab []int32) {
	for r := range rows {
		d, s := dst[r*dstStride:], src[r*srcStride:]
		for i := 0; i < len(tab); i += 3 {
			at, from, n := int(tab[i]), int(tab[i+1]), int(tab[i+2])
			copy(d[at:at+n], s[from:from+n])
		}
	}
}

func (c *piecesCase) goVersion(dst, src []byte) {
	for p := range c.pl.n {
		piecesGo(dst[p*c.pl.dst:], src[p*c.pl.src:], c.rows, c.dstStride, c.srcStride, c.tab)
	}
}

// asm calls the kernel once per plane: it has no planes argument.
func (c *piecesCase) asm(ks asmKernels, dst, src []byte) {
	for p := range c.pl.n {
		ks.rowsPieces(&dst[p*c.pl.dst], &src[p*c.pl.src], c.rows, c.dstStride, c.srcStride, &c.tab[0], len(c.tab)/3)
	}
}

// randomPiecesCase draws rows of width bytes cut into pieces of up to
// maxPiece bytes, in random order, each read from anywhere in a src row of
// mid bytes; some pieces are left unwritten (gaps the canaries watch).
func randomPiecesCase(r *rand.Rand, width, mid, maxPiece int) *piecesCase {
	var tab []int32
	for at := 0; at < width; {
		n := min(width-at, 1+r.IntN(maxPiece))
		if n <= mid && r.IntN(8) > 0 {
			tab = append(tab, int32(at), int32(r.IntN(mid-n+1)), int32(n))
		}
		at += n
	}
	if len(tab) == 0 {
		tab = []int32{0, 0, int32(min(width, mid))}
	}
	p := make([][3]int32, len(tab)/3)
	for i := range p {
		p[i] = [3]int32(tab[3*i:])
	}
	r.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	tab = tab[:0]
	for _, e := range p {
		tab = append(tab, e[:]...)
	}
	g := randomRowsGeometry(r, 0, mid, width-mid)
	g.width = width
	return &piecesCase{rowsGeometry: g, tab: tab}
}

// piecesKernelSets returns the supported levels that have the kernel.
func piecesKernelSets(t testing.TB) []asmKernels {
	return kernelSetsWith(t, "pieces", func(ks *asmKernels) bool { return ks.rowsPieces != nil })
}

var (
	piecesWidths = []int{1, 2, 7, 16, 31, 32, 33, 64, 65, 100, 127, 128, 129, 255, 256, 257, 300, 1000}
	piecesMaxes  = []int{1, 3, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200}
)

func TestRowsPiecesKernel(t *testing.T) {
	for _, ks := range piecesKernelSets(t) {
		t.Run(ks.level.String(), func(t *testing.T) {
			r := rand.New(rand.NewPCG(61, 62))
			calls := 0
			for _, width := range piecesWidths {
				for _, maxPiece := range piecesMaxes {
					mid := max(1, width/(1+r.IntN(3))) // rows wider than their input, as pads make them
					checkCanaries(t, r, ks, randomPiecesCase(r, width, mid, maxPiece), byte(width))
					calls++
				}
			}
			t.Logf("%d calls", calls)
		})
	}
}

func TestRowsPiecesGuard(t *testing.T) {
	for _, ks := range piecesKernelSets(t) {
		t.Run(ks.level.String(), func(t *testing.T) {
			sdata, ddata, unmap := guardPages(t, 2)
			defer unmap()
			r := rand.New(rand.NewPCG(63, 64))
			calls := 0
			for _, width := range piecesWidths {
				for _, maxPiece := range []int{1, 17, 64, 200} {
					for pos := range 8 {
						mid := max(1, width/(1+r.IntN(3)))
						if checkGuarded(t, r, ks, randomPiecesCase(r, width, mid, maxPiece), sdata, ddata, pos%4) {
							calls++
						}
					}
				}
			}
			t.Logf("%d guarded calls", calls)
		})
	}
}

func FuzzRowsPieces(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		r := rand.New(rand.NewPCG(a, b))
		for _, ks := range piecesKernelSets(t) {
			width := 1 + r.IntN(600)
			checkCanaries(t, r, ks, randomPiecesCase(r, width, 1+r.IntN(width), 1+r.IntN(width)), byte(a))
		}
	})
}

// TestUnitRows runs plans of rows of units padded on the units' axis at
// every level against the reference (edge pads of up to edgePiecesMax
// units and mirrored units take the pieces kernel where the level has no
// table kernel for them), then checks the kernel's calls on uint8 [1264,
// 2, 38] reflected by 1 and edge-padded by 2 on axis 1.
func TestUnitRows(t *testing.T) {
	levels := supportedLevels(func(*asmKernels) bool { return true })
	r := rand.New(rand.NewPCG(119, 120))
	runRandomPlans(t, r, levels, 300, 3, func() ([]int, Spec, int, []byte) {
		es, unit := 1<<r.IntN(4), 3+r.IntN(38)
		units := 1 + r.IntN(12)
		mode := []Mode{Edge, Reflect, Symmetric}[r.IntN(3)]
		most := units // mirrored pads of more than the row take several pieces
		if mode == Edge {
			most = edgePiecesMax + 2
		}
		pad := func() int { return r.IntN(min(most, 16) + 1) }
		spec := Spec{Mode: mode, Before: []int{0, pad(), 0}, After: []int{0, pad(), 0}}
		if mode == Reflect {
			spec.Before[1], spec.After[1] = min(spec.Before[1], units-1), min(spec.After[1], units-1)
		}
		row := (units + spec.Before[1] + spec.After[1]) * unit * es
		return []int{1 + r.IntN(min(300, (512<<10)/row)), units, unit}, spec, es, nil
	}, func(p *Plan, es int) bool {
		return p.tablesFor(es).pieces != nil
	}, "have a pieces table")

	ks := kernelsAt(levelAVX2)
	if ks == nil || !ks.supported {
		t.Skip("the CPU has no AVX2: no pieces kernel")
	}
	var rows, pieces []int // rows of all calls, pieces of each
	kernel := ks.rowsPieces
	setForTest(t, &ks.rowsPieces, func(dst, src *byte, n, dstStride, srcStride int, tab *int32, k int) {
		rows = append(rows, n)
		pieces = append(pieces, k)
		kernel(dst, src, n, dstStride, srcStride, tab, k)
	})
	shape := []int{1264, 2, 38}
	for _, c := range []struct {
		spec   Spec
		pieces int // a call's pieces; 0: no call
	}{
		{Spec{Mode: Reflect, Before: []int{0, 1, 0}, After: []int{0, 1, 0}}, 3},
		{Spec{Mode: Edge, Before: []int{0, 2, 0}, After: []int{0, 2, 0}}, 5},
		{Spec{Mode: Edge, Before: []int{0, edgePiecesMax + 1, 0}, After: []int{0, 0, 0}}, 0}, // the Go version's fills
	} {
		rows, pieces = nil, nil
		checkAtLevel(t, levelAVX2, shape, c.spec, randomBytes(r, prod(shape)), nil)
		want := 0 // every row by calls of c.pieces pieces
		if c.pieces > 0 {
			want = shape[0]
		}
		got := 0
		for i, n := range rows {
			got += n
			if pieces[i] != c.pieces {
				t.Errorf("%v %v: a pieces kernel call of %d pieces, want %d", shape, c.spec, pieces[i], c.pieces)
			}
		}
		if got != want {
			t.Errorf("%v %v: pieces kernel calls made %d rows, want %d", shape, c.spec, got, want)
		}
	}
}

// BenchmarkRowsPieces times the kernel beside the Go path it replaces
// (rowsPiecesGo, rowsEdgeGo: a copy a piece) on rows of uint8 [1264, 2,
// 38] reflected or edge-padded by 1 or 2 units on axis 1, 1264 rows a call.
func BenchmarkRowsPieces(b *testing.B) {
	const rows, unit, units = 1264, 38, 2
	for _, c := range []struct {
		mode Mode
		pad  int
	}{{Reflect, 1}, {Edge, 1}, {Edge, 2}} {
		p, err := newExecPlan([]int{rows, units, unit}, Spec{Mode: c.mode, Before: []int{0, c.pad, 0}, After: []int{0, c.pad, 0}})
		if err != nil {
			b.Fatal(err)
		}
		lv := &p.levels[len(p.levels)-1]
		r := &lv.row
		tab := piecesOf(r, 1)
		if tab == nil {
			b.Fatalf("%v by %d: no pieces table", c.mode, c.pad)
		}
		left, mid, right := r.left, r.mid, r.right
		w := left + mid + right
		src, dst := benchBytes(rows*mid), benchBytes(rows*w)
		pre := fmt.Sprintf("%v/pad=%d/", c.mode, c.pad)
		b.Run(pre+"Go", func(b *testing.B) {
			b.SetBytes(int64(len(dst)))
			for b.Loop() {
				if r.kind == rowEdge {
					rowsEdgeGo(dst, src, unit, rows, w, mid, left, mid, right)
				} else {
					rowsPiecesGo(dst, src, rows, w, mid, left, mid, right, r, unit)
				}
			}
		})
		for _, ks := range asmKernelSets {
			if !ks.supported || ks.rowsPieces == nil {
				continue
			}
			b.Run(pre+ks.level.String(), func(b *testing.B) {
				b.SetBytes(int64(len(dst)))
				for b.Loop() {
					ks.rowsPieces(&dst[0], &src[0], rows, w, mid, &tab.ent[0], len(tab.ent)/3)
				}
			})
		}
	}
}
