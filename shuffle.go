package pad

import "unsafe"

// Narrow rows (at most 128 bytes in and out, as in the 7x7 to 28x28 planes
// of convolutional networks) are made by one permutation of each input row:
// a shuffle table says, for every output byte, which byte of the input row
// it takes or that it takes the value. The AVX-512 VBMI kernel builds each
// row in registers and writes it with one or two stores, where the rows
// kernels store each piece separately.

// shuffleTable is the table of a row: output byte i takes byte idx[i] of
// the input row if bit i%64 of take[i/64] is set, else byte i%32 of the
// value pattern. Taken indices are below the row's input length.
type shuffleTable struct {
	idx  [128]byte
	take [2]uint64
}

// bytes is the table as the kernel reads it.
func (t *shuffleTable) bytes() *[144]byte { return (*[144]byte)(unsafe.Pointer(t)) }

// shuffleMax is the widest row, in bytes, a shuffle table describes.
const shuffleMax = 128

// buildShuffles sets the shuffle tables of the innermost level lv (its row
// form r recognised, stride its input stride) for each kernel size whose
// rows fit. The element map comes from running the level itself on input
// indices, so the tables say exactly what the executor does.
func buildShuffles(lv *level, stride int) {
	r := &lv.row
	outElems := lv.outLen * lv.blk
	if r.kind == rowGeneral || r.mid > shuffleMax || outElems > shuffleMax {
		return
	}
	inElems := lv.inLen * stride
	in := make([]int32, inElems)
	for i := range in {
		in[i] = int32(i)
	}
	out := make([]int32, outElems)
	execute(typedKernels[int32]{out, in, -1}, []level{*lv}, []int{stride}, 1)
	base := int32(r.src * stride) // the input element the rows kernels' src points at
	for si, size := range kernelSizes {
		if outElems*size > shuffleMax || r.mid*size > shuffleMax {
			break
		}
		t := new(shuffleTable)
		for e, j := range out {
			if j >= 0 && (j < base || j-base >= int32(r.mid)) {
				return // reads outside the row's window: not a row form after all
			}
			for b := 0; b < size; b++ {
				i := e*size + b
				if j >= 0 {
					t.idx[i] = byte(int(j-base)*size + b)
					t.take[i/64] |= 1 << (i % 64)
				}
			}
		}
		r.shuffle[si] = t
	}
}

// rowsShuffleGo is the Go version of the shuffle kernel: row t of dst (at
// t*dstStride) gets width bytes by tab from the mid bytes of src row t (at
// t*srcStride) and pat.
func rowsShuffleGo(dst, src []byte, rows, dstStride, srcStride, width, mid int, tab *shuffleTable, pat *[32]byte) {
	for r := 0; r < rows; r++ {
		d := dst[r*dstStride : r*dstStride+width]
		s := src[r*srcStride : r*srcStride+mid]
		for i := range d {
			if tab.take[i/64]>>(i%64)&1 != 0 {
				d[i] = s[tab.idx[i]]
			} else {
				d[i] = pat[i%32]
			}
		}
	}
}
