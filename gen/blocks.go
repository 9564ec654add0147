package main

import "fmt"

// The building blocks. Each one handles a byte count n >= 0 by a size
// ladder: a loop of 64-byte blocks plus one final, overlapping 64-byte block
// above 64 bytes; below, two overlapping blocks of the largest power of two
// W <= n, one at offset 0 and one ending at n. No block ever reaches outside
// [0, n) of its source or destination.

// copyBytes copies n bytes from s to d (which do not overlap). n is a
// multiple of minW, a power of two, and at least minN; steps of the ladder
// below either are left out. It clobbers d, s, n, t1, t2 and V16-V19.
func copyBytes(a *asm, d, s, n, t1, t2 string, minW, minN int) {
	done := a.newLabel("copyDone")
	small := a.newLabel("copyLt16")
	gt32 := a.newLabel("copyGt32")
	gt64 := a.newLabel("copyGt64")
	loop := a.newLabel("copyLoop")

	if minN < 16 {
		a.inst("CMP $16, %s", n)
		a.inst("BLT %s", small)
	}
	a.inst("CMP $32, %s", n)
	a.inst("BGT %s", gt32)
	// 16 <= n <= 32: [0, 16) and [n-16, n).
	a.inst("FMOVQ (%s), F16", s)
	a.inst("ADD %s, %s", n, s)
	a.inst("FMOVQ -16(%s), F17", s)
	a.inst("FMOVQ F16, (%s)", d)
	a.inst("ADD %s, %s", n, d)
	a.inst("FMOVQ F17, -16(%s)", d)
	a.inst("B %s", done)

	// 32 < n <= 64: [0, 32) and [n-32, n).
	a.label(gt32)
	a.inst("CMP $64, %s", n)
	a.inst("BGT %s", gt64)
	a.inst("FLDPQ (%s), (F16, F17)", s)
	a.inst("ADD %s, %s", n, s)
	a.inst("FLDPQ -32(%s), (F18, F19)", s)
	a.inst("FSTPQ (F16, F17), (%s)", d)
	a.inst("ADD %s, %s", n, d)
	a.inst("FSTPQ (F18, F19), -32(%s)", d)
	a.inst("B %s", done)

	// n > 64: 64-byte blocks while more than 64 bytes are left, then the
	// last 64 bytes [n-64, n).
	a.label(gt64)
	a.inst("ADD %s, %s, %s", n, s, t1)
	a.inst("ADD %s, %s, %s", n, d, t2)
	a.label(loop)
	a.inst("VLD1.P 64(%s), %s", s, vlist(16, 4, "B16"))
	a.inst("VST1.P %s, 64(%s)", vlist(16, 4, "B16"), d)
	a.inst("SUB $64, %s", n)
	a.inst("CMP $64, %s", n)
	a.inst("BGT %s", loop)
	a.inst("FLDPQ -64(%s), (F16, F17)", t1)
	a.inst("FLDPQ -32(%s), (F18, F19)", t1)
	a.inst("FSTPQ (F16, F17), -64(%s)", t2)
	a.inst("FSTPQ (F18, F19), -32(%s)", t2)
	a.inst("B %s", done)

	// n < 16: test the bits of n from W = 8 down.
	if minN >= 16 {
		a.label(done)
		return
	}
	a.label(small)
	for w := 8; w >= minW; w /= 2 {
		if w == minW {
			// n is 0 or w.
			a.inst("TBZ $%d, %s, %s", log2(w), n, done)
			a.inst("%s (%s), %s", load[w], s, t1)
			a.inst("%s %s, (%s)", store[w], t1, d)
			break
		}
		next := a.newLabel(fmt.Sprintf("copyLt%d", w))
		a.inst("TBZ $%d, %s, %s", log2(w), n, next)
		a.inst("%s (%s), %s", load[w], s, t1)
		a.inst("ADD %s, %s", n, s)
		a.inst("%s -%d(%s), %s", load[w], w, s, t2)
		a.inst("%s %s, (%s)", store[w], t1, d)
		a.inst("ADD %s, %s", n, d)
		a.inst("%s %s, -%d(%s)", store[w], t2, w, d)
		a.inst("B %s", done)
		a.label(next)
	}
	a.label(done)
}

// pattern is where a fill finds its pattern.
type pattern struct {
	lo, hi int    // V registers with pattern bytes 0-15 and 16-31 (the same register for a period <= 16)
	gpr    string // a GPR with pattern bytes 0-7, for 2- and 1-byte stores (minW <= 2)
	lazy   bool   // gpr is loaded from V register lo only where a 2- or 1-byte store needs it
	minW   int    // the fill length is a multiple of minW, a power of two <= the pattern period
}

// storePattern stores the first w bytes of the pattern at addr.
func storePattern(a *asm, p pattern, w int, addr string) {
	switch w {
	case 32:
		a.inst("FSTPQ (F%d, F%d), %s", p.lo, p.hi, addr)
	case 16:
		a.inst("FMOVQ F%d, %s", p.lo, addr)
	case 8:
		a.inst("FMOVD F%d, %s", p.lo, addr)
	case 4:
		a.inst("FMOVS F%d, %s", p.lo, addr)
	default:
		a.inst("%s %s, %s", store[w], p.gpr, addr)
	}
}

// fillBytes writes n bytes of the pattern, starting with pattern byte 0, at
// d. n is a multiple of the pattern period. It clobbers d, n and t.
//
// Every store writes the pattern from byte 0 at an offset that is a
// multiple of the period: offset 0, a multiple of 64, or n-W with W the
// store width, which is >= the period because W is the largest power of two
// <= n (or 64 when n > 64), and n is a multiple of the period.
func fillBytes(a *asm, d, n, t string, p pattern) {
	done := a.newLabel("fillDone")
	lt32 := a.newLabel("fillLt32")
	gt64 := a.newLabel("fillGt64")
	loop := a.newLabel("fillLoop")

	a.inst("CMP $32, %s", n)
	a.inst("BLT %s", lt32)
	a.inst("CMP $64, %s", n)
	a.inst("BGT %s", gt64)
	// 32 <= n <= 64: [0, 32) and [n-32, n).
	storePattern(a, p, 32, "("+d+")")
	a.inst("ADD %s, %s", n, d)
	storePattern(a, p, 32, "-32("+d+")")
	a.inst("B %s", done)

	// n > 64: 64-byte blocks while more than 64 bytes are left, then
	// [n-64, n).
	a.label(gt64)
	a.inst("ADD %s, %s, %s", n, d, t)
	a.label(loop)
	storePattern(a, p, 32, "32("+d+")")
	a.inst("FSTPQ.P (F%d, F%d), 64(%s)", p.lo, p.hi, d)
	a.inst("SUB $64, %s", n)
	a.inst("CMP $64, %s", n)
	a.inst("BGT %s", loop)
	storePattern(a, p, 32, "-64("+t+")")
	storePattern(a, p, 32, "-32("+t+")")
	a.inst("B %s", done)

	// n < 32: test the bits of n from W = 16 down.
	a.label(lt32)
	for w := 16; w >= p.minW; w /= 2 {
		if w == p.minW {
			// n is 0 or w.
			a.inst("TBZ $%d, %s, %s", log2(w), n, done)
			if p.lazy && w <= 2 {
				a.inst("VMOV V%d.D[0], %s", p.lo, p.gpr)
			}
			storePattern(a, p, w, "("+d+")")
			break
		}
		next := a.newLabel(fmt.Sprintf("fillLt%d", w))
		a.inst("TBZ $%d, %s, %s", log2(w), n, next)
		if p.lazy && w <= 2 {
			a.inst("VMOV V%d.D[0], %s", p.lo, p.gpr)
		}
		storePattern(a, p, w, "("+d+")")
		a.inst("ADD %s, %s", n, d)
		storePattern(a, p, w, "-"+itoa(w)+"("+d+")")
		a.inst("B %s", done)
		a.label(next)
	}
	a.label(done)
}

// revVec reverses the order of the k-byte elements of V register in into
// V register out and returns the register that holds the result (in itself
// for k = 16).
func revVec(a *asm, k, in, out int) int {
	switch k {
	case 1:
		a.inst("VREV64 %s, %s", v(in, "B16"), v(out, "B16"))
	case 2:
		a.inst("VREV64 %s, %s", v(in, "H8"), v(out, "H8"))
	case 4:
		a.inst("VREV64 %s, %s", v(in, "S4"), v(out, "S4"))
	case 8:
		a.inst("VEXT $8, %s, %s, %s", v(in, "B16"), v(in, "B16"), v(out, "B16"))
		return out
	case 16:
		return in
	}
	// Each doubleword is reversed; swap the two.
	a.inst("VEXT $8, %s, %s, %s", v(out, "B16"), v(out, "B16"), v(out, "B16"))
	return out
}

// revGPR reverses the order of the k-byte elements of the low w bytes of r
// (loaded zero-extended), w > k.
func revGPR(a *asm, r string, w, k int) {
	switch {
	case w == 8 && k == 1:
		a.inst("REV %s, %s", r, r)
	case w == 8 && k == 2:
		a.inst("REV %s, %s", r, r)
		a.inst("REV16 %s, %s", r, r)
	case w == 8 && k == 4:
		a.inst("ROR $32, %s, %s", r, r)
	case w == 4 && k == 1:
		a.inst("REVW %s, %s", r, r)
	case w == 4 && k == 2:
		a.inst("RORW $16, %s, %s", r, r)
	case w == 2 && k == 1:
		a.inst("REV16W %s, %s", r, r)
	default:
		panic("revGPR: bad widths")
	}
}

// broadcast loads the k-byte element at (r) into every element of V
// register n.
func broadcast(a *asm, k int, r string, n int) {
	switch k {
	case 1:
		a.inst("VLD1R (%s), [%s]", r, v(n, "B16"))
	case 2:
		a.inst("VLD1R (%s), [%s]", r, v(n, "H8"))
	case 4:
		a.inst("VLD1R (%s), [%s]", r, v(n, "S4"))
	case 8:
		a.inst("VLD1R (%s), [%s]", r, v(n, "D2"))
	case 16:
		a.inst("FMOVQ (%s), F%d", r, n)
	}
}

func itoa(n int) string { return fmt.Sprint(n) }
