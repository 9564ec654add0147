package pad

// The grid of the kernel armor tests, shared by guard_test.go (buffers that
// end at, or start right after, a PROT_NONE page) and canary_test.go
// (buffers between canary bytes, every platform). Assembly is not
// instrumented by the race detector, ASan or bounds checks, so these tests
// are what notices a kernel touching a byte beyond its buffers.
//
// The dimensions:
//
//   - K, the element size: 1, 2, 4, 8, 16.
//   - n, the run length in bytes, every multiple of K in [0, 300]: the
//     length of a fill, copy or reversed copy; the copied middle of a row
//     (mid) for the row kernels; the innermost input row of a Pad.
//   - o, the placement offset, 0..63. What it moves differs between the two
//     tests: see guardShift (guard_test.go) and canaryOffset
//     (canary_test.go).
//   - left and right, the pads of a row in elements, 0..40.
//
// The cases:
//
//   - fill, copy, reverseK (gridKernelCalls): every (K, n, o), the full
//     cross product: 585 (K, n) pairs (301 for copy), 64 offsets each; the
//     same for the streaming copy where the level has one, and for copyRep
//     (REP MOVSB) where the CPU has it.
//   - rowsConst, rowsEdgeK (gridKernelCalls): for every K and every mid (for
//     rowsConst with a pattern of period K every byte count 0..300, the
//     contract allowing any mid; for rowsEdgeK the multiples of K from K
//     on), every left 0..40, each with a right such that the 41 cases of
//     one mid run through every right 0..40 too (right = 17*left + 7*i mod
//     41, i the mid's index); 1 to 4 rows, with gaps of 0, 1, K or 13 bytes
//     between destination rows and of 0, 3 or K bytes between source rows.
//     Mids of 0 to 4, 8, 16, 17 and 33 elements take every (left, right)
//     pair. o is the case number mod 64, so that every offset occurs for
//     every K among neighbouring mids.
//   - Pad (gridPadCases): NewPlan, then RunBytes or Run[[K]byte], of a
//     [rows, mid] input of K-byte elements (n = mid*K), rows 1 to 3: one row
//     goes through fill, copy and reverse, several through the row kernels
//     (constant and edge modes) or row by row. For every (K, n) and every
//     left 0..40 each of the five modes, with a right per mode as above (so
//     every right occurs for every (K, n, mode)); now and then outer pads
//     (long fills, copies of whole rows) and a zero value (a clear, not a
//     fill); one case in three as the biggest outputs run (streaming
//     stores, withStreaming), one in three with REP MOVSB for the copies
//     it may take (withRepCopies), and one in six as outputs past the
//     core's cache that do not stream (withInputProgram). An empty row
//     (n = 0) is padded in constant mode only.
//
// Reduced grid (-short, -race, or PAD_GRID=reduced; PAD_GRID=full forces
// the full one): every length still, but for fill, copy and reverse 8
// offsets per length instead of 64 (o ≡ n/K mod 8, so that consecutive
// lengths meet every offset), for the row kernels and Pad every 4th left
// (rotating with the length, so that every left occurs), no (left, right)
// squares, and one mode per Pad case (rotating).

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime/debug"
	"strings"
	"testing"
	"unsafe"
)

const (
	gridMaxLen  = 300 // run lengths 0..300 bytes
	gridOffsets = 64  // placement offsets 0..63
	gridMaxPad  = 40  // pads of 0..40 elements
)

// gridDensity is how densely a test samples the grid.
type gridDensity struct {
	reduced bool
	why     string // what chose the density, for the log
}

// gridDensityFor returns the grid a test runs: the full one, or the
// reduced one under -short and -race (which instruments the tests' Go code,
// not the assembly, and makes the full grid take minutes). PAD_GRID=full or
// PAD_GRID=reduced decides outright. arm64 under qemu runs the full grid:
// it is where the NEON kernels are tested, and it takes about 75 s there.
func gridDensityFor(t *testing.T) gridDensity {
	switch g := os.Getenv("PAD_GRID"); g {
	case "full":
		return gridDensity{why: "PAD_GRID=full"}
	case "reduced":
		return gridDensity{reduced: true, why: "PAD_GRID=reduced"}
	case "":
	default:
		t.Fatalf("PAD_GRID=%q: want full or reduced", g)
	}
	if testing.Short() {
		return gridDensity{reduced: true, why: "-short"}
	}
	if gridRace() {
		return gridDensity{reduced: true, why: "-race"}
	}
	return gridDensity{why: "default"}
}

func (g gridDensity) String() string {
	if g.reduced {
		return "reduced grid (" + g.why + ")"
	}
	return "full grid (" + g.why + ")"
}

// gridRace reports a test binary built with -race.
func gridRace() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" {
				return s.Value == "true"
			}
		}
	}
	return false
}

// offsets returns the placement offsets of the run-kernel length with
// index i.
func (g gridDensity) offsets(i int) []int {
	var offs []int
	for o := 0; o < gridOffsets; o++ {
		if !g.reduced || o%8 == i%8 {
			offs = append(offs, o)
		}
	}
	return offs
}

// lefts returns the left pads of the row or Pad length with index i.
func (g gridDensity) lefts(i int) []int {
	var ls []int
	for l := 0; l <= gridMaxPad; l++ {
		if !g.reduced || l%4 == i%4 {
			ls = append(ls, l)
		}
	}
	return ls
}

// gridRight pairs left pads with right pads: a bijection of 0..40 for each
// i (and salt), so that the lefts of one length meet every right.
func gridRight(left, i, salt int) int { return (17*left + 7*i + 11*salt) % (gridMaxPad + 1) }

// gridSquareMid reports the row lengths (in elements) whose (left, right)
// pairs the full grid takes all.
func gridSquareMid(mid int) bool {
	switch mid {
	case 0, 1, 2, 3, 4, 8, 16, 17, 33:
		return true
	}
	return false
}

// gridPool is the random bytes inputs are cut from.
var gridPool = func() []byte {
	r := rand.New(rand.NewPCG(0x6172, 0x6d6f72))
	b := make([]byte, 64<<10)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}()

// gridData returns n bytes of gridPool picked by seed (not to be written).
func gridData(seed, n int) []byte {
	at := int(uint(seed) * 4099 % uint(len(gridPool)-n+1))
	return gridPool[at : at+n : at+n]
}

// gridPattern returns a fill pattern of period k whose bytes all have the
// top bit set; destinations start with poison bytes (gridPoison) that have
// it clear, so that every byte a fill leaves out shows.
func gridPattern(k, seed int) *[32]byte {
	elem := gridData(seed, k)
	var p [32]byte
	for i := range p {
		p[i] = elem[i%k] | 0x80
	}
	return &p
}

func gridPoison(seed int) byte { return byte(seed*29+3) & 0x7f }

// gridCall is one assembly kernel call of the grid. Operand 0 is the
// destination, the others are read: source rows, the fill pattern. A test
// places the operands, copies in[i] into operand i+1, fills the
// destination with poison, calls, and compares the destination with want.
type gridCall struct {
	kernel string // kernel name, e.g. "reverse4"
	args   string // its arguments, for messages
	size   int    // K
	n      int    // the run length: n, or mid for the row kernels
	off    int    // placement offset
	dstLen int
	in     [][]byte
	poison byte
	want   []byte
	call   func(dst *byte, in []*byte)
}

func (c *gridCall) String() string {
	return fmt.Sprintf("%s(%s) off %d", c.kernel, c.args, c.off)
}

// gridKernelCalls calls f with every kernel call of the grid for the
// kernels of ks (f must not keep c or its slices).
func gridKernelCalls(ks asmKernels, g gridDensity, f func(c *gridCall)) {
	var c gridCall
	seed := 0
	next := func(kernel string, size, n, off, dstLen int) {
		seed++
		c = gridCall{kernel: kernel, size: size, n: n, off: off, dstLen: dstLen, in: c.in[:0], poison: gridPoison(seed)}
	}
	setWant := func(w func(want []byte)) {
		want := make([]byte, c.dstLen)
		for i := range want {
			want[i] = c.poison
		}
		w(want)
		c.want = want
	}
	for ki, k := range kernelSizes {
		// fill: n a multiple of the period k.
		for i := 0; i*k <= gridMaxLen; i++ {
			n := i * k
			for _, off := range g.offsets(i) {
				next(fmt.Sprintf("fill%d", k), k, n, off, n)
				pat := gridPattern(k, seed)
				c.in = append(c.in, pat[:])
				c.args = fmt.Sprintf("n %d, pat % x", n, pat[:k])
				setWant(func(w []byte) { fillGo(w, pat) })
				c.call = func(dst *byte, in []*byte) { ks.fill(dst, n, (*[32]byte)(unsafe.Pointer(in[0]))) }
				f(&c)
			}
		}
		// copy (one kernel, every byte length) and reverseK.
		for _, rev := range []bool{false, true} {
			if !rev && k != 1 {
				continue
			}
			for i := 0; i*k <= gridMaxLen; i++ {
				n := i * k
				for _, off := range g.offsets(i) {
					name := "copy"
					if rev {
						name = fmt.Sprintf("reverse%d", k)
					}
					next(name, k, n, off, n)
					src := gridData(seed, n)
					c.in = append(c.in, src)
					c.args = fmt.Sprintf("n %d", n)
					if rev {
						setWant(func(w []byte) { reverseGo(w, src, k) })
						kern := ks.reverse[ki]
						c.call = func(dst *byte, in []*byte) { kern(dst, in[0], n) }
					} else {
						setWant(func(w []byte) { copy(w, src) })
						c.call = func(dst *byte, in []*byte) { ks.copy(dst, in[0], n) }
					}
					f(&c)
					// The other copy kernels, where the CPU has them.
					for _, other := range []struct {
						name string
						copy func(dst, src *byte, n int)
					}{{"copyRep", ks.copyRep}, {"copyStream", ks.copyStream}} {
						if rev || other.copy == nil {
							continue
						}
						next(other.name, k, n, off, n)
						c.in = append(c.in, src)
						c.args = fmt.Sprintf("n %d", n)
						setWant(func(w []byte) { copy(w, src) })
						c.call = func(dst *byte, in []*byte) { other.copy(dst, in[0], n) }
						f(&c)
					}
				}
			}
		}
		// rowsConst with pattern period k (every mid), rowsEdgeK.
		for _, edge := range []bool{false, true} {
			mids := 0
			for mid := 0; mid <= gridMaxLen; mid++ {
				if edge && (mid == 0 || mid%k != 0) {
					continue
				}
				i := mids
				mids++
				square := !g.reduced && mid%k == 0 && gridSquareMid(mid/k)
				for _, left := range g.lefts(i) {
					rights := []int{gridRight(left, i, 0)}
					if square {
						rights = rights[:0]
						for r := 0; r <= gridMaxPad; r++ {
							rights = append(rights, r)
						}
					}
					for _, right := range rights {
						name := fmt.Sprintf("rowsEdge%d", k)
						if !edge {
							name = fmt.Sprintf("rowsConst/%d", k)
						}
						l, r := left*k, right*k
						width := l + mid + r
						rows := 1 + seed%4
						dstStride := width + []int{0, 1, k, 13}[seed/4%4]
						srcStride := mid + []int{0, 3, k}[seed%3]
						dstLen := (rows-1)*dstStride + width
						srcLen := (rows-1)*srcStride + mid
						next(name, k, mid, seed%gridOffsets, dstLen)
						src := gridData(seed, srcLen)
						c.in = append(c.in, src)
						c.args = fmt.Sprintf("rows %d, dstStride %d, srcStride %d, left %d, mid %d, right %d", rows, dstStride, srcStride, l, mid, r)
						if edge {
							setWant(func(w []byte) { rowsEdgeGo(w, src, k, rows, dstStride, srcStride, l, mid, r) })
							kern := ks.rowsEdge[ki]
							c.call = func(dst *byte, in []*byte) { kern(dst, in[0], rows, dstStride, srcStride, l, mid, r) }
						} else {
							pat := gridPattern(k, seed)
							c.in = append(c.in, pat[:])
							c.args += fmt.Sprintf(", pat % x", pat[:k])
							setWant(func(w []byte) { rowsConstGo(w, src, rows, dstStride, srcStride, l, mid, r, pat) })
							c.call = func(dst *byte, in []*byte) {
								ks.rowsConst(dst, in[0], rows, dstStride, srcStride, l, mid, r, (*[32]byte)(unsafe.Pointer(in[1])))
							}
						}
						f(&c)
					}
				}
			}
		}
	}
}

// gridPad is one Pad of the grid: an input of shape [rows, mid] of size-byte
// elements, padded by left and right elements on the inner axis and by
// outerBefore and outerAfter rows on the outer one.
type gridPad struct {
	mode                    Mode
	size, mid, rows         int
	planes                  int // > 1: a leading unpadded axis (batched rows calls)
	left, right             int
	outerBefore, outerAfter int
	zero                    bool // constant mode: the value is zero bytes (a clear, not a fill)
	typed                   bool // Run[[size]byte] rather than RunBytes
	stream                  bool // as the biggest outputs run (withStreaming)
	inputs                  bool // as outputs past the core's cache run (withInputProgram)
	rep                     bool // copies by REP MOVSB where they may be (withRepCopies)
	off                     int  // placement offset
	seed                    int
}

func (c *gridPad) String() string {
	api := "RunBytes"
	if c.typed {
		api = fmt.Sprintf("Run[[%d]byte]", c.size)
	}
	if c.stream {
		api += " streaming"
	}
	if c.inputs {
		api += " input program"
	}
	if c.rep {
		api += " rep"
	}
	return fmt.Sprintf("%s %v of %v (n %d bytes) by left %d right %d (outer %d, %d), value % x, off %d",
		api, c.mode, c.shape(), c.mid*c.size, c.left, c.right, c.outerBefore, c.outerAfter, c.value(), c.off)
}

func (c *gridPad) shape() []int {
	if c.planes > 1 {
		return []int{c.planes, c.rows, c.mid}
	}
	return []int{c.rows, c.mid}
}

func (c *gridPad) spec() Spec {
	if c.planes > 1 {
		return Spec{Mode: c.mode, Before: []int{0, c.outerBefore, c.left}, After: []int{0, c.outerAfter, c.right}}
	}
	return Spec{Mode: c.mode, Before: []int{c.outerBefore, c.left}, After: []int{c.outerAfter, c.right}}
}

func (c *gridPad) srcLen() int { return max(1, c.planes) * c.rows * c.mid * c.size }

func (c *gridPad) dstLen() int {
	return max(1, c.planes) * (c.outerBefore + c.rows + c.outerAfter) * (c.left + c.mid + c.right) * c.size
}

// value is the pad value, or nil for zero: bytes with the top bit set,
// unlike the poison the guard test fills destinations with.
func (c *gridPad) value() []byte {
	if c.zero || c.mode != Constant {
		return nil
	}
	v := make([]byte, c.size)
	for i := range v {
		v[i] = 0x80 | byte(0x43+29*i+64*(c.seed%2))
	}
	return v
}

func (c *gridPad) source() []byte { return gridData(c.seed, c.srcLen()) }

// want returns the output refPad computes.
func (c *gridPad) want(t *testing.T) []byte {
	want, _, err := refPad(c.source(), c.size, c.shape(), c.spec(), c.value())
	if err != nil {
		t.Fatalf("%v: refPad: %v", c, err)
	}
	return want
}

// run pads src into dst with plan p at the kernel level l.
func (c *gridPad) run(p *Plan, l kernelLevel, dst, src []byte) error {
	var err error
	pad := func() {
		withLevel(l, func() {
			if !c.typed {
				err = p.RunBytes(dst, src, c.size, c.value())
				return
			}
			switch c.size {
			case 1:
				err = gridRunTyped[[1]byte](p, dst, src, c.value())
			case 2:
				err = gridRunTyped[[2]byte](p, dst, src, c.value())
			case 4:
				err = gridRunTyped[[4]byte](p, dst, src, c.value())
			case 8:
				err = gridRunTyped[[8]byte](p, dst, src, c.value())
			default:
				err = gridRunTyped[[16]byte](p, dst, src, c.value())
			}
		})
	}
	switch {
	case c.stream:
		withStreaming(pad)
	case c.inputs:
		withInputProgram(pad)
	case c.rep:
		withRepCopies(pad)
	default:
		pad()
	}
	return err
}

// gridRunTyped runs Run on dst and src viewed as elements of T ([K]byte:
// no alignment needed).
func gridRunTyped[T any](p *Plan, dst, src, value []byte) error {
	var v T
	copy(unsafe.Slice((*byte)(unsafe.Pointer(&v)), unsafe.Sizeof(v)), value)
	return Run(p, gridElems[T](dst), gridElems[T](src), v)
}

func gridElems[T any](b []byte) []T {
	var z T
	if len(b) == 0 {
		return []T{}
	}
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(z)))
}

var gridModes = []Mode{Constant, Edge, Reflect, Wrap, Symmetric}

// gridPadCases calls f with every Pad case of the grid.
func gridPadCases(g gridDensity, f func(c *gridPad)) {
	seed := 0
	for _, k := range kernelSizes {
		for i := 0; i*k <= gridMaxLen; i++ {
			for _, left := range g.lefts(i) {
				modes := gridModes
				if g.reduced {
					modes = modes[(left+i)%5:][:1]
				}
				if i == 0 { // an empty row extends only in constant mode
					modes = gridModes[:1]
				}
				for m, mode := range modes {
					seed++
					c := gridPad{mode: mode, size: k, mid: i, rows: 1 + seed%3, left: left,
						right: gridRight(left, i, m), off: seed % gridOffsets, seed: seed,
						typed: seed%2 == 1, zero: mode == Constant && seed%7 == 3, stream: seed%3 == 2, rep: seed%3 == 1, inputs: seed%6 == 3}
					if seed%5 == 4 {
						c.outerBefore, c.outerAfter = 1+seed/5%2, seed/10%2
					}
					if seed%4 == 1 {
						c.planes = 2 + seed/4%2
						c.outerBefore, c.outerAfter = seed/8%3, seed/16%2
					}
					f(&c)
				}
			}
		}
	}
}

// gridLevels returns the kernel levels to pad at: Go, and each level of
// assembly kernels the CPU supports.
func gridLevels() []kernelLevel {
	ls := []kernelLevel{levelGo}
	for _, ks := range asmKernelSets {
		if ks.supported {
			ls = append(ls, ks.level)
		}
	}
	return ls
}

// gridCounter counts cases per kernel for the log.
type gridCounter struct {
	names []string
	n     map[string]int
	total int
}

func (c *gridCounter) add(name string, n int) {
	if c.n == nil {
		c.n = map[string]int{}
	}
	if _, ok := c.n[name]; !ok {
		c.names = append(c.names, name)
	}
	c.n[name] += n
	c.total += n
}

func (c *gridCounter) String() string {
	var b strings.Builder
	for i, name := range c.names {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", name, c.n[name])
	}
	return b.String()
}

// gridFirstDiff describes the first byte where got and want differ.
func gridFirstDiff(got, want []byte) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			lo, hi := max(0, i-8), min(len(got), i+24)
			return fmt.Sprintf("first difference at byte %d of %d:\n got [%d:] % x\nwant [%d:] % x", i, len(want), lo, got[lo:hi], lo, want[lo:min(len(want), hi)])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(got), len(want))
}
