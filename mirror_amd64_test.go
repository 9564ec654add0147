//go:build amd64 && unix && gc && !purego && !noasm

package pad

// Tests and benchmarks of the rowsMirrorK kernels (notes: contract item 6)
// against the Go loop of the contract: a sweep of every mid, piece length
// and read offset with canaries around dst and src, and the same kernels
// with their buffers against PROT_NONE pages. FuzzKernels fuzzes them too.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/cpu"
)

type mirKernel func(dst, src *byte, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int)

type mirSet struct {
	name string
	ok   bool
	k    [5]mirKernel // K = 1, 2, 4, 8, 16
}

var mirKs = [5]int{1, 2, 4, 8, 16}

func mirSets() []mirSet {
	return []mirSet{
		{"AVX2", cpu.X86.HasAVX2, [5]mirKernel{rowsMirror1AVX2, rowsMirror2AVX2, rowsMirror4AVX2, rowsMirror8AVX2, rowsMirror16AVX2}},
		{"AVX512", cpu.X86.HasAVX512F && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VL,
			[5]mirKernel{rowsMirror1AVX512, rowsMirror2AVX512, rowsMirror4AVX512, rowsMirror8AVX512, rowsMirror16AVX512}},
	}
}

// mirMirrorGo is the Go loop of contract item 6.
func mirMirrorGo(K int, dst, src []byte, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int) {
	for r := 0; r < rows; r++ {
		d := dst[r*dstStride:]
		s := src[r*srcStride:]
		copy(d[left:left+mid], s[:mid])
		for i := 0; i < left/K; i++ {
			copy(d[i*K:(i+1)*K], s[leftFrom-i*K:leftFrom-i*K+K])
		}
		for i := 0; i < right/K; i++ {
			copy(d[left+mid+i*K:left+mid+(i+1)*K], s[rightFrom-i*K:rightFrom-i*K+K])
		}
	}
}

type mirGeom struct{ rows, dgap, sgap, left, mid, right, lf, rf int }

const mirCanary = 64

// mirChecker runs kernels on heap buffers with canaries, reusing buffers.
type mirChecker struct {
	t            *testing.T
	src, srcCopy []byte
	dst, want    []byte
	seed         uint32
	fails        int
}

func (c *mirChecker) rnd() byte {
	c.seed = c.seed*1664525 + 1013904223
	return byte(c.seed >> 24)
}

func (c *mirChecker) check(name string, K int, f mirKernel, g mirGeom) {
	w := g.left + g.mid + g.right
	ds, ss := w+g.dgap, g.mid+g.sgap
	srcLen := (g.rows-1)*ss + g.mid
	dstLen := (g.rows-1)*ds + w
	sn, dn := srcLen+2*mirCanary, dstLen+2*mirCanary
	if cap(c.src) < sn {
		c.src, c.srcCopy = make([]byte, 2*sn), make([]byte, 2*sn)
	}
	if cap(c.dst) < dn {
		c.dst, c.want = make([]byte, 2*dn), make([]byte, 2*dn)
	}
	src, srcCopy := c.src[:sn], c.srcCopy[:sn]
	dst, want := c.dst[:dn], c.want[:dn]
	for i := range src {
		src[i] = c.rnd()
	}
	for i := range dst {
		dst[i] = c.rnd()
	}
	copy(srcCopy, src)
	copy(want, dst)
	mirMirrorGo(K, want[mirCanary:], src[mirCanary:], g.rows, ds, ss, g.left, g.mid, g.right, g.lf, g.rf)
	f(&dst[mirCanary], &src[mirCanary], g.rows, ds, ss, g.left, g.mid, g.right, g.lf, g.rf)
	if !bytes.Equal(dst, want) || !bytes.Equal(src, srcCopy) {
		c.fails++
		if c.fails <= 10 {
			i := 0
			for i < len(dst) && dst[i] == want[i] {
				i++
			}
			c.t.Errorf("%s %+v: dst differs first at byte %d (canary %d), src changed: %v",
				name, g, i-mirCanary, mirCanary, !bytes.Equal(src, srcCopy))
		}
	}
}

// mirPieceLens are piece lengths in units, capped at 320 bytes and at mid.
func mirPieceLens(K, mid int, all bool) []int {
	var ls []int
	for u := 0; u <= 40; u++ {
		if !all && !(u <= 9 || u == 15 || u == 16 || u == 17 || u == 31 || u == 32 || u == 33 || u == 40) {
			continue
		}
		if b := u * K; b <= 320 && b <= mid {
			ls = append(ls, b)
		}
	}
	return ls
}

// mirFroms are leftFrom/rightFrom values for a piece of n bytes: both ends of
// the row and the middle (all positions when all).
func mirFroms(K, n, mid int, all bool) []int {
	lo, hi := n-K, mid-K
	if n == 0 {
		lo = 0
	}
	if all {
		var fs []int
		for f := lo; f <= hi; f += K {
			fs = append(fs, f)
		}
		return fs
	}
	m := (lo + (hi-lo)/2) / K * K
	return []int{lo, m, hi}
}

func TestRowsMirrorKernels(t *testing.T) {
	for _, set := range mirSets() {
		if !set.ok {
			t.Logf("%s not supported, skipped", set.name)
			continue
		}
		for ki, K := range mirKs {
			f := set.k[ki]
			name := fmt.Sprintf("rowsMirror%d%s", K, set.name)
			c := &mirChecker{t: t, seed: uint32(K)}
			gaps := []int{0, 1, 7, 64}
			it := 0
			next := func() (rows, dgap, sgap int) {
				it++
				return 1 + it%4, gaps[it%4], gaps[(it/4)%4]
			}
			// Sweep: every mid (multiple of K, K..300); left over all lengths
			// with a few rights and vice versa; froms at both ends and middle.
			for mid := K; mid <= 300; mid += K {
				all := mirPieceLens(K, mid, true)
				few := mirPieceLens(K, mid, false)
				if mid > 96 && mid%16 != 0 {
					// thin out the long mids: the few lengths still cover
					// every size class of the pieces
					all = few
				}
				for _, l := range all {
					for _, r := range few {
						for _, lf := range mirFroms(K, l, mid, false) {
							rf := mirFroms(K, r, mid, false)[(it+lf)%3]
							rows, dg, sg := next()
							c.check(name, K, f, mirGeom{rows, dg, sg, l, mid, r, lf, rf})
							rows, dg, sg = next()
							c.check(name, K, f, mirGeom{rows, dg, sg, r, mid, l, rf, lf})
						}
					}
				}
			}
			// Exhaustive froms for small rows.
			for mid := K; mid <= 48*K && mid <= 96; mid += K {
				for l := 0; l <= mid && l <= 40*K; l += K {
					for _, lf := range mirFroms(K, l, mid, true) {
						r := []int{0, K, 2 * K, 3 * K}[it%4]
						if r > mid {
							r = 0
						}
						rfs := mirFroms(K, r, mid, true)
						rf := rfs[it%len(rfs)]
						rows, dg, sg := next()
						c.check(name, K, f, mirGeom{rows, dg, sg, l, mid, r, lf, rf})
						rows, dg, sg = next()
						c.check(name, K, f, mirGeom{rows, dg, sg, r, mid, l, rf, lf})
					}
				}
			}
			if c.fails > 0 {
				t.Errorf("%s: %d failures", name, c.fails)
			}
		}
	}
}

// TestRowsMirrorGuard puts the src rows and the dst rows right after and right
// before PROT_NONE pages.
func TestRowsMirrorGuard(t *testing.T) {
	sdata, ddata, unmap := guardPages(t, 2)
	defer unmap()
	seed := uint32(1)
	rnd := func() byte { seed = seed*1664525 + 1013904223; return byte(seed >> 24) }
	calls := 0
	for _, set := range mirSets() {
		if !set.ok {
			continue
		}
		for ki, K := range mirKs {
			f := set.k[ki]
			name := fmt.Sprintf("rowsMirror%d%s", K, set.name)
			var mids []int
			for m := K; m <= 160; m += K {
				mids = append(mids, m)
			}
			mids = append(mids, 224, 256, 288, 304)
			for _, mid := range mids {
				for _, lu := range []int{0, 1, 2, 3, 5, 8, 9, 16, 17, 33, 40} {
					l := lu * K
					if l > mid || l > 320 {
						continue
					}
					for _, ru := range []int{0, 1, 3, 8, 17} {
						r := ru * K
						if r > mid {
							continue
						}
						for fi := 0; fi < 2; fi++ {
							lf, rf := l-K, mid-K
							if fi == 1 {
								lf, rf = mid-K, r-K
							}
							if l == 0 {
								lf = 0
							}
							if r == 0 {
								rf = 0
							}
							for _, rows := range []int{1, 3} {
								w := l + mid + r
								ds, ss := w, mid
								if rows == 3 {
									ds, ss = w+3, mid+5
								}
								srcLen := (rows-1)*ss + mid
								dstLen := (rows-1)*ds + w
								if srcLen > len(sdata) || dstLen > len(ddata) {
									continue
								}
								for pos := 0; pos < 4; pos++ {
									so, do := 0, 0 // start right after a guard page
									if pos&1 != 0 {
										so = len(sdata) - srcLen // end right at a guard page
									}
									if pos&2 != 0 {
										do = len(ddata) - dstLen
									}
									src := sdata[so : so+srcLen]
									dst := ddata[do : do+dstLen]
									for i := range src {
										src[i] = rnd()
									}
									for i := range dst {
										dst[i] = rnd()
									}
									want := append([]byte(nil), dst...)
									mirMirrorGo(K, want, src, rows, ds, ss, l, mid, r, lf, rf)
									f(&dst[0], &src[0], rows, ds, ss, l, mid, r, lf, rf)
									calls++
									if !bytes.Equal(dst, want) {
										t.Fatalf("%s rows=%d ds=%d ss=%d left=%d mid=%d right=%d lf=%d rf=%d pos=%d: wrong result",
											name, rows, ds, ss, l, mid, r, lf, rf, pos)
									}
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d guarded calls", calls)
}

func BenchmarkRowsMirror(b *testing.B) {
	const rows = 64
	for _, c := range []struct{ K, mid int }{{1, 112}, {4, 224}} {
		for _, pu := range []int{2, 3} {
			K, mid := c.K, c.mid
			p := pu * K
			w := p + mid + p
			src := benchBytes(rows * mid)
			dst := benchBytes(rows * w)
			// reflect: leftFrom = p (s[p] down to s[K]), rightFrom = mid-2K.
			lf, rf := p, mid-2*K
			ki := map[int]int{1: 0, 2: 1, 4: 2, 8: 3, 16: 4}[K]
			pre := fmt.Sprintf("K=%d/mid=%d/pad=%d/", K, mid, pu)
			b.Run(pre+"Go", func(b *testing.B) {
				b.SetBytes(int64(len(dst)))
				for i := 0; i < b.N; i++ {
					mirMirrorGo(K, dst, src, rows, w, mid, p, mid, p, lf, rf)
				}
			})
			for _, set := range mirSets() {
				if !set.ok {
					continue
				}
				f := set.k[ki]
				b.Run(pre+set.name, func(b *testing.B) {
					b.SetBytes(int64(len(dst)))
					for i := 0; i < b.N; i++ {
						f(&dst[0], &src[0], rows, w, mid, p, mid, p, lf, rf)
					}
				})
			}
		}
	}
}

// TestPlanesAsRows checks that the pad rows of reflected planes, one input
// row each, go to the mirror kernel as one call across the planes
// (planesAsRows) and the planes' middles as a call a plane, with outputs
// equal to the reference's; without planesAsRows, or with planes 4 KiB
// apart, every row run of every plane is a call of its own.
func TestPlanesAsRows(t *testing.T) {
	ks := kernelsAt(levelAVX2)
	if ks == nil || !ks.supported || ks.rowsMirror[3] == nil {
		t.Skip("no AVX2 mirror kernels on this CPU")
	}
	calls := 0
	mirror := ks.rowsMirror[3]
	setForTest(t, &ks.rowsMirror[3], func(dst, src *byte, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom int) {
		calls++
		mirror(dst, src, rows, dstStride, srcStride, left, mid, right, leftFrom, rightFrom)
	})
	setForTest(t, &planesAsRowsMax, planesAsRowsMax)
	setForTest(t, &ks.rowsEndsWords, nil) // which makes these rows whole (KERNELS.md item 14b)
	r := rand.New(rand.NewPCG(53, 54))
	for _, c := range []struct {
		w, max, calls int
	}{
		{14, 4, 2*6 + 96},  // float64 planes of 20x20 (3200 bytes): each pad row across the planes, in two calls (chunkBytes)
		{14, 0, 6*96 + 96}, // without it
		{26, 4, 6*96 + 96}, // planes of 32x32 (8 KiB): a call a row run and plane
		{14, 6, 2*6 + 96},  // the six pad rows are six runs of one row
	} {
		planesAsRowsMax = c.max
		shape := []int{1, 96, c.w, c.w}
		spec := Spec{Mode: Reflect, Before: []int{0, 0, 3, 3}, After: []int{0, 0, 3, 3}}
		p, err := newExecPlan(shape, spec, Workers(1))
		if err != nil {
			t.Fatal(err)
		}
		in := randomBytes(r, 8*prod(shape))
		want, _, err := refPad(in, 8, shape, spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]byte, len(want))
		calls = 0
		withLevel(levelAVX2, func() { err = p.RunBytes(dst, in, 8, nil) })
		if err != nil || !bytes.Equal(dst, want) {
			t.Errorf("%v %v, planesAsRowsMax %d: output differs from the reference (%v)", shape, spec, c.max, err)
		}
		if calls != c.calls {
			t.Errorf("%v %v, planesAsRowsMax %d: %d mirror kernel calls, want %d", shape, spec, c.max, calls, c.calls)
		}
	}
}
