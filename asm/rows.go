package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

const rowsSig = "func(dst, src *byte, rows, dstStride, srcStride, left, mid, right int"

// rowsArgs are the registers of a rows kernel.
type rowsArgs struct {
	d, s, rows, ds, ss, left, mid, right reg.Register
	K                                    int // element size (rowsEdgeK), 0 for rowsConst
}

func loadRowsArgs(K int) rowsArgs {
	return rowsArgs{
		d:     Load(Param("dst"), gp()),
		s:     Load(Param("src"), gp()),
		rows:  Load(Param("rows"), gp()),
		ds:    Load(Param("dstStride"), gp()),
		ss:    Load(Param("srcStride"), gp()),
		left:  Load(Param("left"), gp()),
		mid:   Load(Param("mid"), gp()),
		right: Load(Param("right"), gp()),
		K:     K,
	}
}

// minW is the smallest fill width that can occur: left and right are
// multiples of K (rowsEdgeK) or of the pattern period (>= 1, rowsConst).
func (r rowsArgs) minW() int {
	if r.K == 0 {
		return 1
	}
	return r.K
}

// patGen supplies the fill patterns of a row: vectors whose every offset that
// is a multiple of the period starts the pattern, or general registers with
// the pattern's low bytes. For rowsConst they are loop-invariant registers
// set up once; for rowsEdgeK each call emits the loads of the row's first and
// last element (s[0:K] and s[mid-K:mid]) inside the loop.
type patGen struct {
	vec  func(W int) (l, r reg.Register) // W = 16, 32, 64: XMM, YMM or ZMM
	gpr  func(W int) (l, r reg.Register) // W = 4 or 8: GP64 with W pattern bytes
	lazy func(v reg.Register) func() reg.GPVirtual
}

func vecOfWidth(W int) reg.VecVirtual {
	switch W {
	case 16:
		return XMM()
	case 32:
		return YMM()
	}
	return ZMM()
}

func viewOfWidth(v reg.VecVirtual, W int) reg.Register {
	switch W {
	case 16:
		return v.AsX()
	case 32:
		return v.AsY()
	}
	return v.AsZ()
}

// constPats loads pat once: a vector (the 32 bytes, broadcast to 64 for
// AVX-512) and its first 8 bytes in a general register.
func constPats(a isa) patGen {
	p := Load(Param("pat"), gp())
	v := a.vec()
	if a.V == 64 {
		VBROADCASTI64X4(at(p, 0), v)
	} else {
		VMOVDQU(at(p, 0), v)
	}
	g := gp()
	MOVQ(at(p, 0), g)
	return patGen{
		vec:  func(W int) (reg.Register, reg.Register) { x := viewOfWidth(v, W); return x, x },
		gpr:  func(int) (reg.Register, reg.Register) { return g, g },
		lazy: func(reg.Register) func() reg.GPVirtual { return func() reg.GPVirtual { return g } },
	}
}

// broadcastElem loads the K-byte element at m and repeats it over v.
func broadcastElem(K int, m Mem, v reg.Register, W int) {
	switch K {
	case 1:
		VPBROADCASTB(m, v)
	case 2:
		VPBROADCASTW(m, v)
	case 4:
		VPBROADCASTD(m, v)
	case 8:
		VPBROADCASTQ(m, v)
	case 16:
		switch W {
		case 16:
			VMOVDQU(m, v)
		case 32:
			VBROADCASTI128(m, v)
		default:
			VBROADCASTI32X4(m, v)
		}
	}
}

// edgePats loads the edge elements of each row.
func edgePats(r rowsArgs) patGen {
	K := r.K
	// rep8 replicates a K-byte element (K < 8) over 8 bytes by multiplication.
	var rep8 reg.GPVirtual
	if K < 8 {
		rep8 = gp()
		var m uint64
		for i := 0; i < 8; i += K {
			m |= 1 << (8 * uint(i))
		}
		MOVQ(U64(m), rep8)
	}
	loadGP := func(m Mem, W int) reg.Register {
		g := gp()
		switch K {
		case 1:
			MOVBQZX(m, g)
		case 2:
			MOVWQZX(m, g)
		case 4:
			MOVLQZX(m, g)
		default:
			MOVQ(m, g)
		}
		if K < W {
			if W == 8 {
				IMULQ(rep8, g)
			} else { // W == 4
				var m32 uint32
				for i := 0; i < 4; i += K {
					m32 |= 1 << (8 * uint(i))
				}
				IMUL3L(U32(m32), g.As32(), g.As32())
			}
		}
		return g
	}
	return patGen{
		vec: func(W int) (reg.Register, reg.Register) {
			l, rt := vecOfWidth(W), vecOfWidth(W)
			broadcastElem(K, at(r.s, 0), l, W)
			broadcastElem(K, ati(r.s, r.mid, -K), rt, W)
			return l, rt
		},
		gpr: func(W int) (reg.Register, reg.Register) {
			return loadGP(at(r.s, 0), W), loadGP(ati(r.s, r.mid, -K), W)
		},
		lazy: lazyFromVec,
	}
}

// lazyFromVec is a patGen's lazy that takes the pattern's low 8 bytes from
// its vector v when asked.
func lazyFromVec(v reg.Register) func() reg.GPVirtual {
	return func() reg.GPVirtual {
		t := gp()
		VMOVQ(v.(reg.VecVirtual).AsX(), t)
		return t
	}
}

// rowsLoop emits: do { body(); d += dstStride; s += srcStride } while --rows > 0.
func rowsLoop(r rowsArgs, body func()) {
	loop := newLabel("rows_loop")
	Label(loop)
	body()
	ADDQ(r.ds, r.d)
	ADDQ(r.ss, r.s)
	DECQ(r.rows)
	JNZ(LabelRef(loop))
}

func rowsDoc(name string, K int) []string {
	if K == 0 {
		return []string{
			name + " pads rows rows with a constant: row r of dst (at r*dstStride)",
			"gets left bytes of the pattern pat, the mid bytes of row r of src (at",
			"r*srcStride) and right bytes of pat; no other byte of dst is written.",
			"pat repeats with a period p in {1, 2, 4, 8, 16}; left and right are",
			"multiples of p, and each fill starts at pat[0]:",
			"",
			"\tfor r := 0; r < rows; r++ {\n\t\td := dst[r*dstStride:]\n\t\ts := src[r*srcStride:]\n\t\tfill(d[:left])\n\t\tcopy(d[left:left+mid], s[:mid])\n\t\tfill(d[left+mid : left+mid+right])\n\t}",
			"",
		}
	}
	return []string{
		name + " pads rows rows by repeating their edge elements: row r of dst",
		"(at r*dstStride) gets left bytes of copies of the first element of row r",
		"of src (at r*srcStride), its mid bytes, and right bytes of copies of its",
		fmt.Sprintf("last element. Elements are %d bytes: left, mid and right are multiples", K),
		fmt.Sprintf("of %d, and mid >= %d. No other byte of dst is written:", K, K),
		"",
		fmt.Sprintf("\tfor r := 0; r < rows; r++ {\n\t\td := dst[r*dstStride:]\n\t\ts := src[r*srcStride:]\n\t\tfor i := 0; i < left; i += %d {\n\t\t\tcopy(d[i:i+%d], s[:%d])\n\t\t}\n\t\tcopy(d[left:left+mid], s[:mid])\n\t\tfor i := 0; i < right; i += %d {\n\t\t\tcopy(d[left+mid+i:left+mid+i+%d], s[mid-%d:mid])\n\t\t}\n\t}", K, K, K, K, K, K),
		"",
	}
}

func genRowsConst(a isa) {
	name := "rowsConst" + a.name
	kernel(name, rowsSig+", pat *[32]byte)", append(rowsDoc(name, 0), a.feature())...)
	r := loadRowsArgs(0)
	rowsKernel(a, r, constPats(a))
}

func genRowsEdge(a isa, K int) {
	name := fmt.Sprintf("rowsEdge%d%s", K, a.name)
	kernel(name, rowsSig+")", append(rowsDoc(name, K), a.feature())...)
	r := loadRowsArgs(K)
	rowsKernel(a, r, edgePats(r))
}

// rowsKernel emits a rows kernel. Each row is written as: left fill, right
// fill, mid copy. A fill may spill into the mid region (never outside the
// row, never into the other fill), because the copy, last, overwrites it.
//
// Width classes (branch-free loops): for W in {4, 8, 16, 32} (and 64 for
// AVX-512, from mid >= 128), when mid >= W and left, right <= W, the left fill is one W-byte
// store at 0 and the right fill one W-byte store ending at the row end (each
// lies within the row and reaches at most into mid), and the copy is a pair
// of overlapping W-byte moves (or a vector loop for big mid). Rows outside
// every class take the general loop: exact fills and copy by size ladders
// (AVX2), or full vectors plus one masked vector per region (AVX-512).
// Measured on Sapphire Rapids, the classes beat masked AVX-512 stores for
// short rows by 2-3x (about 1 ns per row against 3), so AVX-512 uses masks
// only in its general loop.
func rowsKernel(a isa, r rowsArgs, pg patGen) {
	ret, general := newLabel("ret"), newLabel("general")
	TESTQ(r.rows, r.rows)
	JZ(LabelRef(ret))
	lm, w := gp(), gp()
	LEAQ(ati(r.left, r.mid, 0), lm)
	LEAQ(ati(lm, r.right, 0), w)
	TESTQ(w, w)
	JZ(LabelRef(ret))

	if r.K == 0 {
		rowsFillClasses(a, r, pg, general)
	}

	// Classes (W, smallest mid), widest first. The ZMM class starts at
	// mid >= 128: below that, unaligned 64-byte stores (each splits a cache
	// line) made it slower than the YMM class in measurements.
	type class struct{ W, minMid int }
	classes := []class{{32, 32}, {16, 16}, {8, 8}, {4, 4}}
	if a.V == 64 {
		classes = append([]class{{64, 128}}, classes...)
	}
	var cls []class
	for _, c := range classes {
		if c.W >= r.minW() {
			cls = append(cls, c)
		}
	}
	// Rows outside the classes go to the general loop, or for rowsConst
	// first to the spill classes.
	other := general
	if r.K == 0 {
		other = newLabel("spill")
	}
	labels := make([]string, len(cls))
	for i, c := range cls {
		labels[i] = newLabel(fmt.Sprintf("class%d", c.W))
		CMPQ(r.mid, U32(c.minMid))
		JAE(LabelRef(labels[i]))
	}
	JMP(LabelRef(other))
	for i, c := range cls {
		Label(labels[i])
		CMPQ(r.left, U32(c.W))
		JA(LabelRef(other))
		CMPQ(r.right, U32(c.W))
		JA(LabelRef(other))
		rowsClass(a, r, pg, c.W, w)
	}
	if r.K == 0 {
		Label(other)
		rowsSpillClasses(a, r, pg, w, general)
	}

	Label(general)
	if a.V == 64 {
		rowsMaskedGeneral(r, pg, lm)
	} else {
		rowsLadderGeneral(r, pg)
	}
	VZEROUPPER()
	Label(ret)
	RET()
}

// rowsFillClasses emits, for rowsConst, the loops of rows that are one
// fill (mid and right 0) of 4 to 64 bytes: two stores of W bytes a row,
// at its start and ending at its end (left in [W, 2W]: the pattern's
// period, a power of two that divides left, divides W). The executor
// fills the pad rows of a batch of planes as such rows (pad_generic.go:
// fills); the general loop's size ladder took longer than a clear a row
// there. Other rows go on to the classes.
func rowsFillClasses(a isa, r rowsArgs, pg patGen, general string) {
	next := newLabel("fill_none")
	TESTQ(r.mid, r.mid)
	JNZ(LabelRef(next))
	TESTQ(r.right, r.right)
	JNZ(LabelRef(next))
	CMPQ(r.left, U8(64))
	JA(LabelRef(general))
	widths := []int{32, 16, 8, 4}
	labels := make([]string, len(widths))
	for i, W := range widths {
		labels[i] = newLabel(fmt.Sprintf("fill%d", W))
		CMPQ(r.left, U8(W))
		JAE(LabelRef(labels[i]))
	}
	JMP(LabelRef(general))
	for i, W := range widths {
		Label(labels[i])
		rowsLoop(r, func() { storePattern(a, pg, W, at(r.d, 0), ati(r.d, r.left, -W)) })
		VZEROUPPER()
		RET()
	}
	Label(next)
}

// rowsSpillClasses emits, for rowsConst, the loops of rows whose pads are
// wider than their mid's class allows (narrow rows of a few elements padded
// by more: float32 rows of 1 element padded by 4 and 3 took 3.8 ns a row in
// the general loop's size ladders). Each row is two fills of F bytes, the
// smallest power of two F >= max(left, right) (up to 64: two stores each
// at the AVX2 level), one at the row's start and one ending at its end, then the mid by a pair of moves of Wc bytes (mid in
// [Wc, 2Wc]). Each fill covers its pad and spills into the mid, which the
// copy overwrites, and may spill into the other pad with the pattern out of
// phase (mid need not be a multiple of its period), so the fill that spills
// past the mid goes first and the other overwrites what it put in its pad:
// the class takes rows where one of them stays within its pad and the mid
// (F <= left+mid: the start's; F <= mid+right: the end's). Other rows, and
// mid outside [1, 64], go to the general loop.
func rowsSpillClasses(a isa, r rowsArgs, pg patGen, w reg.Register, general string) {
	const midMax = 64
	TESTQ(r.mid, r.mid)
	JZ(LabelRef(general))
	CMPQ(r.mid, U32(midMax))
	JA(LabelRef(general))
	m := gp() // max(left, right)
	MOVQ(r.left, m)
	CMPQ(r.right, m)
	CMOVQHI(r.right, m)
	fills := []int{4, 8, 16, 32, 64}
	fLabels := make([]string, len(fills))
	for i, F := range fills {
		fLabels[i] = newLabel(fmt.Sprintf("spill%d", F))
		CMPQ(m, U32(F))
		JBE(LabelRef(fLabels[i]))
	}
	JMP(LabelRef(general))
	for i, F := range fills {
		Label(fLabels[i])
		// The fill that may spill into the other pad goes first; the other,
		// which stays within its pad and the mid, overwrites that: the
		// end's first where the start's stays within left+mid, else the
		// start's (and the end's stays within mid+right).
		t := gp()
		LEAQ(ati(m, r.mid, 0), t)
		CMPQ(t, U32(F))
		JB(LabelRef(general)) // neither stays within its pad and the mid
		first, second := gp(), gp()
		MOVQ(w, first)
		SUBQ(U32(F), first) // the end's fill
		XORQ(second, second)
		LEAQ(ati(r.left, r.mid, 0), t)
		CMPQ(t, U32(F))
		keep := newLabel("spill_order")
		JAE(LabelRef(keep)) // the start's fill stays within left+mid: it goes second
		XCHGQ(first, second)
		Label(keep)
		spillMids(a, r, pg, F, first, second, general)
	}
}

// spillMids emits the mid dispatch and loops of spill class F
// (rowsSpillClasses): fills at d+first, then d+second, then the mid by a
// pair of Wc-byte moves, for Wc = 1, 2, ..., 32 (mid in [1, 64]).
func spillMids(a isa, r rowsArgs, pg patGen, F int, first, second reg.Register, general string) {
	mids := []int{1, 2, 4, 8, 16, 32}
	if F == 64 && a.V == 64 {
		// Mids of 32 bytes and more with fills of 64 took up to 1.13x
		// the masked loop's time.
		mids = mids[:len(mids)-1]
	}
	labels := make([]string, len(mids))
	for i, Wc := range mids {
		labels[i] = newLabel(fmt.Sprintf("spill%d_mid%d", F, Wc))
		CMPQ(r.mid, U32(2*Wc))
		if i < len(mids)-1 {
			JB(LabelRef(labels[i]))
		} else {
			JBE(LabelRef(labels[i])) // the pair makes mid up to 2Wc
		}
	}
	JMP(LabelRef(general)) // mid > 64, or 32 and more with ZMM fills
	for i, Wc := range mids {
		Label(labels[i])
		rowsLoop(r, func() {
			storePattern(a, pg, F, ati(r.d, first, 0), ati(r.d, second, 0))
			dm := gp()
			LEAQ(ati(r.d, r.left, 0), dm)
			movePair(Wc, dm, r.s, r.mid)
		})
		VZEROUPPER()
		RET()
	}
}

// storePattern stores the first W bytes (4 to 64) of rowsConst's pattern
// at each of ms in turn: from a general register up to 8, else a vector
// of W bytes, or at the AVX2 level two YMM stores for 64.
func storePattern(a isa, pg patGen, W int, ms ...Mem) {
	for _, m := range ms {
		switch {
		case W == 8:
			g, _ := pg.gpr(8)
			MOVQ(g, m)
		case W == 4:
			g, _ := pg.gpr(4)
			MOVL(g.(reg.GPVirtual).As32(), m)
		case W == 64 && a.V == 32:
			v, _ := pg.vec(32)
			VMOVDQU(v, m)
			m.Disp += 32
			VMOVDQU(v, m)
		case W == 64:
			v, _ := pg.vec(64)
			VMOVDQU64(v, m)
		default:
			v, _ := pg.vec(W)
			VMOVDQU(v, m)
		}
	}
}

// rowsClass emits the loops of width class W (mid >= W, left, right <= W,
// w = left+mid+right); they return from the kernel.
func rowsClass(a isa, r rowsArgs, pg patGen, W int, w reg.Register) {
	fills := func() {
		if W <= 8 {
			l, rt := pg.gpr(W)
			if W == 8 {
				MOVQ(l, at(r.d, 0))
				MOVQ(rt, ati(r.d, w, -8))
			} else {
				MOVL(l.(reg.GPVirtual).As32(), at(r.d, 0))
				MOVL(rt.(reg.GPVirtual).As32(), ati(r.d, w, -4))
			}
			return
		}
		l, rt := pg.vec(W)
		store := VMOVDQU
		if W == 64 {
			store = func(a, b Op) { VMOVDQU64(a, b) }
		}
		store(l, at(r.d, 0))
		store(rt, ati(r.d, w, -W))
	}
	loop := func(copyMid func(dm reg.Register)) {
		rowsLoop(r, func() {
			fills()
			dm := gp()
			LEAQ(ati(r.d, r.left, 0), dm)
			copyMid(dm)
		})
		VZEROUPPER()
		RET()
	}
	pair := func(dm reg.Register) { movePair(W, dm, r.s, r.mid) } // mid in [W, 2W]
	if W < 32 {
		// mid in [W, 2W): the next class catches bigger mid.
		loop(pair)
		return
	}
	// The widest class: mid >= W; sub-dispatch on mid, with vectors of W bytes.
	a = isa{name: a.name, V: W}
	V := W
	le4, big, huge := newLabel("mid_le4"), newLabel("mid_big"), newLabel("mid_huge")
	CMPQ(r.mid, U32(2*V))
	JA(LabelRef(le4))
	loop(pair)
	Label(le4)
	CMPQ(r.mid, U32(4*V))
	JA(LabelRef(big))
	loop(func(dm reg.Register) {
		v := [4]reg.VecVirtual{a.vec(), a.vec(), a.vec(), a.vec()}
		a.load(at(r.s, 0), v[0])
		a.load(at(r.s, V), v[1])
		a.load(ati(r.s, r.mid, -2*V), v[2])
		a.load(ati(r.s, r.mid, -V), v[3])
		a.store(v[0], at(dm, 0))
		a.store(v[1], at(dm, V))
		a.store(v[2], ati(dm, r.mid, -2*V))
		a.store(v[3], ati(dm, r.mid, -V))
	})
	Label(big)
	CMPQ(r.mid, U32(1024))
	JAE(LabelRef(huge))
	loop(func(dm reg.Register) { copyLong(a, dm, r.s, r.mid, false, true) })
	Label(huge)
	loop(func(dm reg.Register) { copyLong(a, dm, r.s, r.mid, true, true) })
}

// rowsLadderGeneral is the AVX2 loop for any geometry: each region exact.
func rowsLadderGeneral(r rowsArgs, pg patGen) {
	alignLoop() // placed after the spill classes, unaligned, it took up to 1.2x as long
	rowsLoop(r, func() {
		l, rt := pg.vec(32)
		fillExactAVX2(r.d, r.left, l, pg.lazy(l), r.minW())
		dr := gp()
		LEAQ(ati(r.d, r.left, 0), dr)
		ADDQ(r.mid, dr)
		fillExactAVX2(dr, r.right, rt, pg.lazy(rt), r.minW())
		dm := gp()
		LEAQ(ati(r.d, r.left, 0), dm)
		copyExactAVX2(dm, r.s, r.mid, r.minW())
	})
}

func fillExactAVX2(d, n, y reg.Register, g func() reg.GPVirtual, minW int) {
	short, done := newLabel("fx_short"), newLabel("fx_done")
	CMPQ(n, U32(32))
	JB(LabelRef(short))
	fillLong(avx2, d, n, y, false)
	JMP(LabelRef(done))
	Label(short)
	fillShort(d, n, y.(reg.VecVirtual).AsX(), g, minW)
	Label(done)
}

func copyExactAVX2(d, s, n reg.Register, minW int) {
	short, done := newLabel("cx_short"), newLabel("cx_done")
	CMPQ(n, U32(32))
	JB(LabelRef(short))
	copyLong(avx2, d, s, n, false)
	JMP(LabelRef(done))
	Label(short)
	copyShort(d, s, n, minW)
	Label(done)
}

// masks are the per-region tails of the AVX-512 loops: region i (left, mid,
// right) is full[i] bytes of whole vectors followed by a last chunk of
// 1..64 bytes (0 for an empty region) under mask k[i].
type masks struct {
	full [3]reg.GPVirtual
	k    [3]reg.Register
}

func newMasks(r rowsArgs) *masks {
	m := &masks{}
	tab := gp()
	LEAQ(maskTable, tab)
	for i, n := range []reg.Register{r.left, r.mid, r.right} {
		f := gp()
		// full = n > 0 ? (n-1) &^ 63 : 0
		MOVQ(n, f)
		SUBQ(U8(1), f)
		ANDQ(I8(-64), f)
		TESTQ(n, n)
		CMOVQEQ(n, f)
		t := gp()
		MOVQ(n, t)
		SUBQ(f, t)
		k := kreg()
		KMOVQ(Mem{Base: tab, Index: t, Scale: 8}, k)
		m.full[i], m.k[i] = f, k
	}
	return m
}

// rowsMaskedGeneral is the AVX-512 loop for any geometry. Its masked
// accesses are 64-byte windows that start in their region and may reach up
// to 64 bytes past a row's end (past a src row's end for the loads). A
// masked access whose masked-off bytes lie in a page that is not present
// costs a microcode assist of about 190 ns on a Zen 5, though it touches
// nothing there, so the trailing rows whose windows could reach past the
// page of the call's last byte (of dst or of src) are made by the exact
// loop instead (rowsLadderGeneral): usually the last row, a few more when
// rows are short.
func rowsMaskedGeneral(r rowsArgs, pg patGen, lm reg.Register) {
	tail := AllocLocal(16) // the trailing rows' count, right
	tailRows(r.d, r.rows, r.ds, tail.Offset(0), lm, r.right)
	skipSrc := newLabel("tail_src_none")
	TESTQ(r.mid, r.mid)
	JZ(LabelRef(skipSrc))
	tailRows(r.s, r.rows, r.ss, tail.Offset(8), r.mid)
	n := gp()
	MOVQ(tail.Offset(8), n)
	CMPQ(n, tail.Offset(0))
	JBE(LabelRef(skipSrc))
	MOVQ(n, tail.Offset(0))
	Label(skipSrc)
	MOVQ(r.right, tail.Offset(8))

	mk := newMasks(r)
	exact, done := newLabel("tail_rows"), newLabel("tail_done")
	SUBQ(tail.Offset(0), r.rows)
	JZ(LabelRef(exact))
	rowsLoop(r, func() {
		l, rt := pg.vec(64)
		fillMasked(r.d, mk.full[0], l, mk.k[0])
		dr := gp()
		LEAQ(ati(r.d, lm, 0), dr)
		fillMasked(dr, mk.full[2], rt, mk.k[2])
		dm := gp()
		LEAQ(ati(r.d, r.left, 0), dm)
		copyMasked(dm, r.s, r.mid, mk.full[1], mk.k[1])
	})
	Label(exact)
	MOVQ(tail.Offset(0), r.rows)
	TESTQ(r.rows, r.rows)
	JZ(LabelRef(done))
	MOVQ(tail.Offset(8), r.right)
	// The exact loop takes its general-register patterns from the
	// vectors, so that rowsConst's stays free in the masked loop.
	fromVec := pg
	fromVec.lazy = lazyFromVec
	rowsLadderGeneral(r, fromVec)
	Label(done)
}

// tailRows stores at m how many of the last rows (of rows rows from p at
// stride, each the sum of widths bytes) end less than 64 bytes before the
// end of the page of the last row's last byte.
func tailRows(p, rows, stride reg.Register, m Mem, widths ...reg.Register) {
	x, limit, n := gp(), gp(), gp()
	MOVQ(rows, x)
	DECQ(x)
	IMULQ(stride, x)
	ADDQ(p, x)
	for _, w := range widths {
		ADDQ(w, x)
	}
	// x is the last row's end; limit the page's end - 64.
	LEAQ(at(x, -1), limit)
	ORQ(U32(4095), limit)
	SUBQ(U8(63), limit)
	XORQ(n, n)
	loop, done := newLabel("tail_loop"), newLabel("tail_counted")
	Label(loop)
	CMPQ(n, rows)
	JAE(LabelRef(done))
	CMPQ(x, limit)
	JBE(LabelRef(done))
	INCQ(n)
	SUBQ(stride, x)
	JMP(LabelRef(loop))
	Label(done)
	MOVQ(n, m)
}

// fillMasked stores z at d, d+64, ... below d+full, then under mask k at d+full.
func fillMasked(d, full, z, k reg.Register) {
	i := gp()
	XORQ(i, i)
	loop, tail := newLabel("fm_loop"), newLabel("fm_tail")
	Label(loop)
	CMPQ(i, full)
	JAE(LabelRef(tail))
	VMOVDQU64(z, ati(d, i, 0))
	ADDQ(U8(64), i)
	JMP(LabelRef(loop))
	Label(tail)
	VMOVDQU8(z, k, ati(d, full, 0))
}

// copyMasked copies n bytes from s to d: full vectors below full, then the
// last chunk under mask k. n == 0 does nothing (src may be any pointer).
func copyMasked(d, s, n, full, k reg.Register) {
	skip := newLabel("cm_skip")
	TESTQ(n, n)
	JZ(LabelRef(skip))
	i := gp()
	XORQ(i, i)
	loop, tail := newLabel("cm_loop"), newLabel("cm_tail")
	Label(loop)
	CMPQ(i, full)
	JAE(LabelRef(tail))
	z := ZMM()
	VMOVDQU64(ati(s, i, 0), z)
	VMOVDQU64(z, ati(d, i, 0))
	ADDQ(U8(64), i)
	JMP(LabelRef(loop))
	Label(tail)
	z2 := ZMM()
	VMOVDQU8_Z(ati(s, full, 0), k, z2)
	VMOVDQU8(z2, k, ati(d, full, 0))
	Label(skip)
}
