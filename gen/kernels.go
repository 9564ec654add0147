package main

import "fmt"

// Registers: the prologue loads argument i into Ri (R0-R8). The row
// kernels keep per-row pointers and counts in R9-R13 and loop invariants in
// R19-R21. Not used: R18 (platform register), R26 (closure context), R27
// (assembler temporary), R28 (g), R29 (frame pointer), R30 (link register).
// Vector registers: V0 and V1 hold fill patterns, V16-V23 data in flight.

var elemSizes = []int{1, 2, 4, 8, 16}

// kernels returns the kernels of notes/kernels.md in a fixed order.
func kernels() []kernel {
	ks := []kernel{fillKernel(), copyKernel()}
	for _, k := range elemSizes {
		ks = append(ks, reverseKernel(k))
	}
	ks = append(ks, rowsConstKernel())
	for _, k := range elemSizes {
		ks = append(ks, rowsEdgeKernel(k))
	}
	return ks
}

var (
	pDst       = param{"dst", "*byte"}
	pSrc       = param{"src", "*byte"}
	pN         = param{"n", "int"}
	pPat       = param{"pat", "*[32]byte"}
	pRows      = param{"rows", "int"}
	pDstStride = param{"dstStride", "int"}
	pSrcStride = param{"srcStride", "int"}
	pLeft      = param{"left", "int"}
	pMid       = param{"mid", "int"}
	pRight     = param{"right", "int"}
)

func fillKernel() kernel {
	return kernel{
		name:   "fillNEON",
		params: []param{pDst, pN, pPat},
		doc: `
fillNEON writes n bytes of the 32-byte pattern pat to dst. pat repeats with a
period p in {1, 2, 4, 8, 16} and n is a multiple of p:

	for i := 0; i < n; i++ { dst[i] = pat[i%32] }`,
		body: func(a *asm, r map[string]string) {
			done := a.newLabel("done")
			a.inst("CBZ %s, %s", r["n"], done)
			a.inst("VLD1 (%s), %s", r["pat"], vlist(0, 2, "B16"))
			a.inst("MOVD (%s), R3", r["pat"])
			fillBytes(a, r["dst"], r["n"], "R4", pattern{lo: 0, hi: 1, gpr: "R3", minW: 1})
			a.label(done)
		},
	}
}

func copyKernel() kernel {
	return kernel{
		name:   "copyNEON",
		params: []param{pDst, pSrc, pN},
		doc: `
copyNEON copies n bytes from src to dst, which do not overlap:

	for i := 0; i < n; i++ { dst[i] = src[i] }`,
		body: func(a *asm, r map[string]string) {
			copyBytes(a, r["dst"], r["src"], r["n"], "R3", "R4", 1, 0)
		},
	}
}

func reverseKernel(k int) kernel {
	doc := fmt.Sprintf(`
reverse%[1]dNEON copies the m = n/%[1]d elements of %[1]d bytes of src to dst in
reverse order; n is a multiple of %[1]d:

	for i := 0; i < m; i++ { copy(dst[i*%[1]d:(i+1)*%[1]d], src[(m-1-i)*%[1]d:(m-i)*%[1]d]) }`, k)
	if k == 1 {
		doc = `
reverse1NEON copies the n bytes of src to dst in reverse order:

	for i := 0; i < n; i++ { dst[i] = src[n-1-i] }`
	}
	return kernel{
		name:   fmt.Sprintf("reverse%dNEON", k),
		params: []param{pDst, pSrc, pN},
		doc:    doc,
		body:   func(a *asm, r map[string]string) { reverseBody(a, k, r["dst"], r["src"], r["n"]) },
	}
}

// reverseBody writes dst forward and reads src backward. Above 64 bytes a
// loop of 64-byte blocks, then the last 64 bytes of dst, which are src's
// first 64 reversed; 16 to 64 bytes as two overlapping blocks; below 16
// bytes two overlapping scalar words of W bytes, W the largest power of two
// <= n, their elements reversed in a GPR. Every block starts at a multiple
// of k in both src and dst, so element boundaries are respected.
func reverseBody(a *asm, k int, dst, src, n string) {
	small := a.newLabel("lt16")
	lt32 := a.newLabel("lt32")
	lt64 := a.newLabel("lt64")
	loop := a.newLabel("loop")
	se, de := "R3", "R4" // src end (walks backward), dst end

	a.inst("CMP $16, %s", n)
	a.inst("BLT %s", small)
	a.inst("CMP $32, %s", n)
	a.inst("BLT %s", lt32)
	a.inst("CMP $64, %s", n)
	a.inst("BLT %s", lt64)

	a.comment("n >= 64: 64-byte blocks while more than 64 bytes are left.")
	a.inst("ADD %s, %s, %s", n, src, se)
	a.inst("ADD %s, %s, %s", n, dst, de)
	a.label(loop)
	// src[se-64 : se] is V18, V19, V16, V17.
	a.inst("FLDPQ -32(%s), (F16, F17)", se)
	a.inst("FLDPQ.W -64(%s), (F18, F19)", se)
	r16, r17, r18, r19 := revVec(a, k, 16, 20), revVec(a, k, 17, 21), revVec(a, k, 18, 22), revVec(a, k, 19, 23)
	a.inst("FSTPQ (F%d, F%d), 32(%s)", r19, r18, dst)
	a.inst("FSTPQ.P (F%d, F%d), 64(%s)", r17, r16, dst)
	a.inst("SUB $64, %s", n)
	a.inst("CMP $64, %s", n)
	a.inst("BGT %s", loop)
	a.comment("dst[n-64:n] is src[0:64] reversed.")
	a.inst("FLDPQ (%s), (F16, F17)", src)
	a.inst("FLDPQ 32(%s), (F18, F19)", src)
	r16, r17, r18, r19 = revVec(a, k, 16, 20), revVec(a, k, 17, 21), revVec(a, k, 18, 22), revVec(a, k, 19, 23)
	a.inst("FSTPQ (F%d, F%d), -64(%s)", r19, r18, de)
	a.inst("FSTPQ (F%d, F%d), -32(%s)", r17, r16, de)
	a.inst("RET")

	a.comment("32 <= n < 64: dst[0:32] from src[n-32:n], dst[n-32:n] from src[0:32].")
	a.label(lt64)
	a.inst("FLDPQ (%s), (F16, F17)", src)
	a.inst("ADD %s, %s, %s", n, src, se)
	a.inst("FLDPQ -32(%s), (F18, F19)", se)
	r16, r17, r18, r19 = revVec(a, k, 16, 20), revVec(a, k, 17, 21), revVec(a, k, 18, 22), revVec(a, k, 19, 23)
	a.inst("FSTPQ (F%d, F%d), (%s)", r19, r18, dst)
	a.inst("ADD %s, %s, %s", n, dst, de)
	a.inst("FSTPQ (F%d, F%d), -32(%s)", r17, r16, de)
	a.inst("RET")

	a.comment("16 <= n < 32: dst[0:16] from src[n-16:n], dst[n-16:n] from src[0:16].")
	a.label(lt32)
	a.inst("FMOVQ (%s), F16", src)
	a.inst("ADD %s, %s, %s", n, src, se)
	a.inst("FMOVQ -16(%s), F17", se)
	r16, r17 = revVec(a, k, 16, 20), revVec(a, k, 17, 21)
	a.inst("FMOVQ F%d, (%s)", r17, dst)
	a.inst("ADD %s, %s, %s", n, dst, de)
	a.inst("FMOVQ F%d, -16(%s)", r16, de)
	a.inst("RET")

	a.comment("n < 16: test the bits of n from W = 8 down.")
	a.label(small)
	for w := 8; w >= k; w /= 2 {
		if w == k {
			// n is 0 or w: one element.
			done := a.newLabel("done")
			a.inst("TBZ $%d, %s, %s", log2(w), n, done)
			a.inst("%s (%s), R5", load[w], src)
			a.inst("%s R5, (%s)", store[w], dst)
			a.label(done)
			break
		}
		next := a.newLabel(fmt.Sprintf("lt%d", w))
		a.inst("TBZ $%d, %s, %s", log2(w), n, next)
		a.inst("%s (%s), R5", load[w], src)
		a.inst("ADD %s, %s, %s", n, src, se)
		a.inst("%s -%d(%s), R6", load[w], w, se)
		revGPR(a, "R5", w, k)
		revGPR(a, "R6", w, k)
		a.inst("%s R6, (%s)", store[w], dst)
		a.inst("ADD %s, %s, %s", n, dst, de)
		a.inst("%s R5, -%d(%s)", store[w], w, de)
		a.inst("RET")
		a.label(next)
	}
}

// Registers of the row kernels.
const (
	rowD   = "R9"  // destination pointer of a region
	rowS   = "R10" // source pointer
	rowN   = "R11" // byte count of a region
	rowT1  = "R12" // scratch
	rowT2  = "R13" // scratch
	patG   = "R19" // pattern bytes 0-7 for narrow stores
	lmOff  = "R20" // left+mid: offset of the right fill in a dst row
	lastS  = "R21" // mid-K: offset of the last element in a src row
	rowLen = "R22" // left+mid+right
)

func rowsConstKernel() kernel {
	return kernel{
		name:   "rowsConstNEON",
		params: []param{pDst, pSrc, pRows, pDstStride, pSrcStride, pLeft, pMid, pRight, pPat},
		doc: `
rowsConstNEON pads rows rows of mid bytes with left and right bytes of the
pattern pat on either side (left and right are multiples of pat's period;
see fillNEON). Each fill starts at pat[0]:

	for r := 0; r < rows; r++ {
		d := dst[r*dstStride:]; s := src[r*srcStride:]
		fill(d[:left]); copy(d[left:left+mid], s[:mid]); fill(d[left+mid:left+mid+right])
	}`,
		body: func(a *asm, r map[string]string) { rowsBody(a, r, 0) },
	}
}

func rowsEdgeKernel(k int) kernel {
	return kernel{
		name:   fmt.Sprintf("rowsEdge%dNEON", k),
		params: []param{pDst, pSrc, pRows, pDstStride, pSrcStride, pLeft, pMid, pRight},
		doc: fmt.Sprintf(`
rowsEdge%[1]dNEON pads rows rows of mid bytes by repeating the row's first
%[1]d-byte element left bytes to the left and its last element right bytes to
the right (mid >= %[1]d; left, mid and right are multiples of %[1]d):

	for r := 0; r < rows; r++ {
		d := dst[r*dstStride:]; s := src[r*srcStride:]
		for i := 0; i < left; i += %[1]d { copy(d[i:i+%[1]d], s[:%[1]d]) }
		copy(d[left:left+mid], s[:mid])
		for i := 0; i < right; i += %[1]d { copy(d[left+mid+i:left+mid+i+%[1]d], s[mid-%[1]d:mid]) }
	}`, k),
		body: func(a *asm, r map[string]string) { rowsBody(a, r, k) },
	}
}

// rowsBody emits rowsConst (k == 0) or rowsEdgeK. The left pattern is in V0
// and the right one in V1: for rowsConst the 32-byte pattern in V0, V1
// (and bytes 0-7 in patG), loaded once; for rowsEdgeK the row's edge
// elements, broadcast per row.
//
// left, mid and right are the same for all rows, so one of three loops is
// chosen once. When mid >= W and left, right <= W (W = 32 or 16, left or
// right > 0), each fill is a single W-byte store: at the start of the row,
// reaching at most into mid, and ending at the end of the row, reaching
// back at most into mid, both before the copy of mid, which then overwrites
// whatever they put there. The right store starts right-W bytes before the
// right fill, a multiple of the period, so its pattern is in phase. The
// general loop fills each region by the ladder of fillBytes, whose stores
// stay inside the region.
func rowsBody(a *asm, r map[string]string, k int) {
	dst, src, rows := r["dst"], r["src"], r["rows"]
	left, mid, right := r["left"], r["mid"], r["right"]
	done, general := a.newLabel("done"), a.newLabel("general")
	try16, fast16, fast32 := a.newLabel("try16"), a.newLabel("fast16"), a.newLabel("fast32")
	leftPat := pattern{lo: 0, hi: 1, gpr: patG, minW: 1}
	rightPat := leftPat
	if k > 0 {
		leftPat = pattern{lo: 0, hi: 0, gpr: patG, lazy: true, minW: k}
		rightPat = pattern{lo: 1, hi: 1, gpr: patG, lazy: true, minW: k}
	}

	a.inst("CBZ %s, %s", rows, done)
	a.inst("ADD %s, %s, %s", left, mid, lmOff)
	a.inst("ADD %s, %s, %s", right, lmOff, rowLen)
	if k == 0 {
		noPat := a.newLabel("noPat")
		a.inst("ORR %s, %s, %s", left, right, rowT1)
		a.inst("CBZ %s, %s", rowT1, noPat)
		a.inst("VLD1 (%s), %s", r["pat"], vlist(0, 2, "B16"))
		a.inst("MOVD (%s), %s", r["pat"], patG)
		a.label(noPat)
	} else {
		a.inst("SUB $%d, %s, %s", k, mid, lastS)
		a.inst("ORR %s, %s, %s", left, right, rowT1)
	}
	a.comment("Choose the loop: one store per fill if the fills fit in 32 or 16 bytes.")
	a.inst("CBZ %s, %s", rowT1, general)
	a.inst("CMP $32, %s", mid)
	a.inst("BLT %s", try16)
	a.inst("CMP $32, %s", left)
	a.inst("BGT %s", try16)
	a.inst("CMP $32, %s", right)
	a.inst("BLE %s", fast32)
	a.label(try16)
	a.inst("CMP $16, %s", mid)
	a.inst("BLT %s", general)
	a.inst("CMP $16, %s", left)
	a.inst("BGT %s", general)
	a.inst("CMP $16, %s", right)
	a.inst("BGT %s", general)

	for _, w := range []int{16, 32} {
		a.label(map[int]string{16: fast16, 32: fast32}[w])
		a.comment("left, right <= %d <= mid", w)
		loop := a.newLabel("row")
		a.label(loop)
		if k > 0 {
			broadcast(a, k, src, 0)
			a.inst("ADD %s, %s, %s", lastS, src, rowS)
			broadcast(a, k, rowS, 1)
		}
		a.inst("ADD %s, %s, %s", rowLen, dst, rowD)
		storePattern(a, leftPat, w, "("+dst+")")
		storePattern(a, rightPat, w, fmt.Sprintf("-%d(%s)", w, rowD))
		a.inst("ADD %s, %s, %s", left, dst, rowD)
		a.inst("MOVD %s, %s", src, rowS)
		a.inst("MOVD %s, %s", mid, rowN)
		copyBytes(a, rowD, rowS, rowN, rowT1, rowT2, max(k, 1), w)
		nextRow(a, r, loop)
		a.inst("RET")
	}

	a.comment("General rows: each region by its ladder.")
	a.label(general)
	loop := a.newLabel("row")
	skipLeft, skipRight := a.newLabel("noLeft"), a.newLabel("noRight")
	a.label(loop)
	a.inst("CBZ %s, %s", left, skipLeft)
	if k > 0 {
		broadcast(a, k, src, 0)
	}
	a.inst("MOVD %s, %s", dst, rowD)
	a.inst("MOVD %s, %s", left, rowN)
	fillBytes(a, rowD, rowN, rowT1, leftPat)
	a.label(skipLeft)

	a.inst("ADD %s, %s, %s", left, dst, rowD)
	a.inst("MOVD %s, %s", src, rowS)
	a.inst("MOVD %s, %s", mid, rowN)
	copyBytes(a, rowD, rowS, rowN, rowT1, rowT2, max(k, 1), 0)

	a.inst("CBZ %s, %s", right, skipRight)
	if k > 0 {
		a.inst("ADD %s, %s, %s", lastS, src, rowS)
		broadcast(a, k, rowS, 1)
	}
	a.inst("ADD %s, %s, %s", lmOff, dst, rowD)
	a.inst("MOVD %s, %s", right, rowN)
	fillBytes(a, rowD, rowN, rowT1, rightPat)
	a.label(skipRight)
	nextRow(a, r, loop)
	a.label(done)
}

// nextRow advances dst and src by their strides and loops while rows are
// left.
func nextRow(a *asm, r map[string]string, loop string) {
	a.inst("ADD %s, %s", r["dstStride"], r["dst"])
	a.inst("ADD %s, %s", r["srcStride"], r["src"])
	a.inst("SUB $1, %s", r["rows"])
	a.inst("CBNZ %s, %s", r["rows"], loop)
}
