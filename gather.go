package pad

import (
	"encoding/binary"
	"unsafe"
)

// Small outputs skip the executor: a plan whose output has at most
// gatherMaxOut elements (from at most gatherMaxIn input elements) keeps a
// table with the input index of every output element, or -1 for the
// value, and a run is one loop over it. The executor's fixed cost (its
// walk over the levels, a kernel call per run) dominates such outputs:
// the ONNX spec example ([3, 2] to [3, 4]) took 75-110 ns through it, 25
// ns through the table. The loop takes about 0.45 ns an element of up to
// 8 bytes, the executor 55-110 ns and its kernels' time: in process, plans
// built with the table and without alternated 7 rounds, 120 random plans
// of 65 to 200 elements out (rank 1 to 3, every mode, elements of 1 to 8
// bytes) took 0.12-1.21x the time with it up to 128 elements (median
// 0.69x), 0.47-1.03x from 129 to 160 and 0.71-2.0x above. Elements wider
// than 8 bytes, or that hold pointers, cost the loop more: 24 complex128
// plans of 65 to 160 elements took 0.27-2.2x the time by the table,
// geometric mean 1.5x, against 1.0-3.2x faster up to 64 elements; so they
// keep the table up to gatherAnyMaxOut elements, the bound before this one.
// gatherMaxOut is a variable so that tests can send small outputs through
// the executor too.
var gatherMaxOut = 160

// gatherAnyMaxOut is the most elements a run gathers whatever their type
// (gathers).
const gatherAnyMaxOut = 64

const gatherMaxIn = 4096

// gathers reports whether a run of elements of size bytes, which hold no
// pointers if pointerFree, takes the plan's gather table.
func (p *Plan) gathers(size int, pointerFree bool) bool {
	return p.gather != nil && (p.outLen <= gatherAnyMaxOut || size <= 8 && pointerFree)
}

// buildGather sets p.gather when the output is small enough.
func (p *Plan) buildGather() {
	if p.outLen == 0 || p.outLen > gatherMaxOut || p.inLen > gatherMaxIn {
		return
	}
	p.gather = indexMap(p.levels, p.strides, p.inLen, p.outLen)
}

// indexMap runs a program on the input indices 0..inLen-1 with -1 as the
// value: element i of the result is the input index output element i
// takes, or -1 where it takes the value. The gather and shuffle tables
// come from it, so they say exactly what the executor does.
func indexMap(levels []level, strides []int, inLen, outLen int) []int32 {
	in := make([]int32, inLen)
	for i := range in {
		in[i] = int32(i)
	}
	out := make([]int32, outLen)
	execute(typedKernels[int32]{out, in, -1}, levels, strides, 1, nil)
	return out
}

// gather sets dst[i] = src[idx[i]], or value where idx[i] < 0.
func gather[T any](dst, src []T, idx []int32, value T) {
	dst = dst[:len(idx)]
	for i, j := range idx {
		if j < 0 {
			dst[i] = value
		} else {
			dst[i] = src[j]
		}
	}
}

// gatherBytes is gather for elements of size bytes; value is one element or
// empty (zero). Elements of 2, 4 and 8 bytes are moved as integers when
// both slices are aligned for them (as allocations of such elements are),
// elements of 16 bytes as two uint64 at any alignment: a copy call each
// took complex128 outputs of 12 to 38 elements 1.5-1.9x the time.
func gatherBytes(dst, src []byte, size int, idx []int32, value []byte) {
	aligned := (uintptr(unsafe.Pointer(unsafe.SliceData(dst)))|uintptr(unsafe.Pointer(unsafe.SliceData(src))))%uintptr(size) == 0
	le := binary.LittleEndian
	switch {
	case size == 1:
		var v byte
		if len(value) > 0 {
			v = value[0]
		}
		gather(dst, src, idx, v)
	case size == 2 && aligned:
		var v uint16
		if len(value) > 0 {
			v = le.Uint16(value)
		}
		gather(asElems[uint16](dst), asElems[uint16](src), idx, v)
	case size == 4 && aligned:
		var v uint32
		if len(value) > 0 {
			v = le.Uint32(value)
		}
		gather(asElems[uint32](dst), asElems[uint32](src), idx, v)
	case size == 8 && aligned:
		var v uint64
		if len(value) > 0 {
			v = le.Uint64(value)
		}
		gather(asElems[uint64](dst), asElems[uint64](src), idx, v)
	case size == 16:
		var v0, v1 uint64
		if len(value) > 0 {
			v0, v1 = le.Uint64(value), le.Uint64(value[8:])
		}
		dst = dst[:16*len(idx)]
		for i, j := range idx {
			x0, x1 := v0, v1
			if j >= 0 {
				s := src[16*int(j):][:16]
				x0, x1 = le.Uint64(s), le.Uint64(s[8:])
			}
			d := dst[16*i:][:16]
			le.PutUint64(d, x0)
			le.PutUint64(d[8:], x1)
		}
	default:
		for i, j := range idx {
			d := dst[i*size : (i+1)*size]
			switch {
			case j >= 0:
				copy(d, src[int(j)*size:])
			case len(value) > 0:
				copy(d, value)
			default:
				clear(d)
			}
		}
	}
}

// asElems views b, aligned for T, as the T values it holds.
func asElems[T uint16 | uint32 | uint64](b []byte) []T {
	var zero T
	return unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/int(unsafe.Sizeof(zero)))
}
