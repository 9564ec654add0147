// Package pad pads tensors: it implements the Pad operator of ONNX (opsets 1
// to 25), OpenVINO (Pad-1, Pad-12) and nGraph/XLA (interior padding) for
// every element type, on row-major tensors stored in Go slices.
//
// A padding is described by a [Spec]: one [Mode] for all axes, per-axis
// Before and After counts (negative counts crop), optional Interior padding
// (constant mode), and the [Order] in which negative pads are applied in the
// non-constant modes. The behaviour follows the settled semantics of the
// project (SEMANTICS.md): every axis maps output indices to input indices or
// to the pad value independently, reflect, symmetric and wrap extend the
// input periodically so pads of any size are valid, and values are copied
// bit for bit.
//
// [Pad] and [Into] are the one-call API; they reuse the plans of recent
// calls ([CachedPlan]). For repeated padding of one shape, compile a [Plan]
// once with [NewPlan] and run it with [Run], [RunStrided], [Plan.RunBytes]
// or [Plan.RunPacked]; a Plan is immutable and safe for concurrent use.
//
// Every error wraps one of the exported sentinels (ErrInvalidSpec,
// ErrShapeMismatch, ErrEmptyAxis, ErrTooLarge, ErrOverlap) and names the axis
// and numbers involved. Nothing is written to dst when an error is returned.
package pad

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Mode is the way the padded area is filled.
type Mode uint8

const (
	// Constant fills the padding with a value (the zero value by default).
	Constant Mode = iota
	// Reflect mirrors the input on its edge element, which is not repeated:
	// [1 2 3] padded by 2 on both sides gives [3 2 1 2 3 2 1].
	Reflect
	// Edge repeats the edge element: [1 2 3] gives [1 1 1 2 3 3 3].
	Edge
	// Wrap continues the input periodically: [1 2 3] gives [2 3 1 2 3 1 2].
	Wrap
	// Symmetric mirrors the input including its edge element:
	// [1 2 3] gives [2 1 1 2 3 3 2].
	Symmetric
)

var modeNames = [...]string{"constant", "reflect", "edge", "wrap", "symmetric"}

// String returns the lower-case name of the mode, as ParseMode accepts it.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// ParseMode returns the Mode named s ("constant", "reflect", "edge", "wrap"
// or "symmetric"), ignoring case.
func ParseMode(s string) (Mode, error) {
	for i, name := range modeNames {
		if strings.EqualFold(s, name) {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown mode %q (want constant, reflect, edge, wrap or symmetric)", ErrInvalidSpec, s)
}

// Order says how negative pads combine with positive ones in the
// non-constant modes. Constant mode gives the same result in both orders.
type Order uint8

const (
	// CropThenPad removes the cropped elements first and extends what
	// remains (ONNX, ONNX Runtime): wrap [1 2 3 4] with Before -3, After 3
	// gives [4 4 4 4].
	CropThenPad Order = iota
	// PadThenCrop extends the whole input and then removes elements
	// (OpenVINO, nGraph): edge [1 2 3 4 5 6] with Before 2, After -7 gives [1].
	PadThenCrop
)

// String returns "crop-then-pad" or "pad-then-crop".
func (o Order) String() string {
	switch o {
	case CropThenPad:
		return "crop-then-pad"
	case PadThenCrop:
		return "pad-then-crop"
	}
	return fmt.Sprintf("Order(%d)", uint8(o))
}

// Spec describes a padding of a tensor of known rank.
type Spec struct {
	Mode     Mode
	Before   []int // per axis, elements added before the data; negative crops
	After    []int // per axis, elements added after the data; negative crops
	Interior []int // nil, or per axis the values inserted between neighbours (Constant mode only)
	Order    Order // how negative pads apply in the non-constant modes
}

// The sentinels every error of the package wraps; test with errors.Is.
var (
	// ErrInvalidSpec: the padding or an argument is malformed (lengths that
	// differ from the rank, a negative output length, an unknown mode,
	// interior padding outside constant mode, a bad element size...).
	ErrInvalidSpec = errors.New("pad: invalid spec")
	// ErrShapeMismatch: a slice's length does not match its shape.
	ErrShapeMismatch = errors.New("pad: shape mismatch")
	// ErrEmptyAxis: a non-constant mode was asked to pad an axis that has
	// no elements to extend.
	ErrEmptyAxis = errors.New("pad: positive pad of an empty axis")
	// ErrTooLarge: a length, product or byte size does not fit in an int.
	ErrTooLarge = errors.New("pad: too large")
	// ErrOverlap: dst and src share memory.
	ErrOverlap = errors.New("pad: dst and src overlap")
)

// maxAllocBytes bounds the outputs Pad allocates, so that an absurd but
// representable size is an error instead of a runtime panic. Where int has
// 32 bits it is 1 GiB: an allocation near 2 GiB cannot succeed in a 32-bit
// address space, and the runtime's out-of-memory error is fatal.
const maxAllocBytes = min(1<<47, math.MaxInt>>1)

// OutShape returns the shape of the result of padding a tensor of shape in,
// or the reason the padding is invalid.
func (s Spec) OutShape(in []int) ([]int, error) {
	axes, err := s.check(in)
	if err != nil {
		return nil, err
	}
	out := make([]int, len(axes))
	for i, a := range axes {
		out[i] = a.outLen
	}
	return out, nil
}

// Pad returns src (a row-major tensor of the given shape) padded as s says,
// with value in the padded area of Constant mode, and the output's shape.
// It refuses (ErrTooLarge) to allocate an output of more than 1<<47 bytes,
// or 1 GiB where int has 32 bits. Its plan comes from CachedPlan.
func Pad[T any](src []T, shape []int, s Spec, value T) (out []T, outShape []int, err error) {
	p, err := CachedPlan(shape, s)
	if err != nil {
		return nil, nil, err
	}
	if err := p.checkLens(len(src), -1); err != nil {
		return nil, nil, err
	}
	size := int(unsafe.Sizeof(value))
	if size > 0 && p.outLen > maxAllocBytes/size {
		return nil, nil, fmt.Errorf("%w: output of %d elements of %d bytes", ErrTooLarge, p.outLen, size)
	}
	out = make([]T, p.outLen)
	if err := Run(p, out, src, value); err != nil {
		return nil, nil, err
	}
	return out, p.OutShape(), nil
}

// Into pads src (a row-major tensor of the given shape) into dst, which must
// have exactly the output's number of elements. Its plan comes from
// CachedPlan.
func Into[T any](dst, src []T, shape []int, s Spec, value T) error {
	p, err := CachedPlan(shape, s)
	if err != nil {
		return err
	}
	return Run(p, dst, src, value)
}

// Plan is a padding compiled for one input shape and Spec. It is safe for
// concurrent use by any number of goroutines. Its first two runs with an
// element size build the SIMD kernels' tables for that size (the second the
// ones that pay only over several runs); later runs allocate nothing.
type Plan struct {
	in, out       []int // shapes
	inLen, outLen int   // element counts

	// The program for contiguous input: padded axes with runs of unpadded
	// axes merged, innermost unpadded axes folded into the copied groups.
	levels  []level
	strides []int // input elements per index step of each level

	// One level per axis, for strided input.
	axes []level

	// The same programs with every level above the innermost made from
	// the input only (inputForm), for runs that stream or whose output is
	// larger than the core's cache without REP MOVSB for its copies
	// (programFor), which would read finished blocks back from farther
	// away than the input they came from; nil where they would not differ.
	inputLevels, inputAxes []level

	workers int // Workers option; 0: the default

	// Small outputs: the input index of each output element, -1 for the
	// value, or the runs of the output that a copy or a fill each makes
	// (gather.go).
	gather []int32
	runs   []gatherRun

	// The kernels' tables of levels at each kernel size (sizeIndex),
	// built at the first runs with that size (tables.go).
	tables [5]atomic.Pointer[sizeTables]

	// The state of runs split over goroutines, kept between runs
	// (parallel.go).
	parallel sync.Pool
}

// Option configures NewPlan.
type Option func(*planOptions)

type planOptions struct {
	workers int // 0: the default
}

// Workers sets how many goroutines a run of the plan may use: 1 runs on
// the calling goroutine only; n > 1 splits outputs of parallelMinBytes or
// more over n goroutines by blocks of output rows. The default (n <= 0)
// uses GOMAXPROCS goroutines for such outputs (on AMD CPUs, only when
// input plus output reach the size of the last-level cache). Results are
// the same bit for bit whatever the number of workers. The goroutines
// besides the caller's are the package's helpers: started at the first
// run that needs them and kept, idle, for the next.
func Workers(n int) Option {
	return func(o *planOptions) { o.workers = n }
}

// NewPlan compiles the padding s of tensors of the given shape.
func NewPlan(shape []int, s Spec, opts ...Option) (*Plan, error) {
	axes, err := s.check(shape)
	if err != nil {
		return nil, err
	}
	var o planOptions
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	p := compile(s, axes)
	p.workers = o.workers
	p.buildGather()
	return p, nil
}

// InShape returns (a copy of) the input shape the plan was compiled for.
func (p *Plan) InShape() []int { return append([]int{}, p.in...) }

// OutShape returns (a copy of) the shape of the plan's output.
func (p *Plan) OutShape() []int { return append([]int{}, p.out...) }

// Run pads src into dst. Both are contiguous row-major tensors with exactly
// the plan's input and output numbers of elements; value fills the padding
// in Constant mode.
func Run[T any](p *Plan, dst, src []T, value T) error {
	if p == nil {
		return errNilPlan
	}
	if err := p.checkLens(len(src), len(dst)); err != nil {
		return err
	}
	if err := checkOverlap(dst, src); err != nil {
		return err
	}
	if p.outLen == 0 {
		return nil
	}
	if p.gather != nil && p.outLen <= gatherAnyMaxOut { // before byteSized's reflection, for the smallest outputs
		gather(dst, src, p.gather, value)
		return nil
	}
	es, ok := byteSized[T]()
	switch {
	case ok && p.runsFit(es):
		gatherRunsBytes(asBytes(dst), asBytes(src), es, p.runs, unsafe.Slice((*byte)(unsafe.Pointer(&value)), es))
		return nil
	case !ok && p.runsFit(max(1, int(unsafe.Sizeof(value)))):
		gatherRuns(dst, src, p.runs, value)
		return nil
	case p.gathers(es, ok):
		gather(dst, src, p.gather, value)
		return nil
	}
	if ok {
		k := newByteKernels(asBytes(dst), asBytes(src), es)
		k.tab, k.dense = p.tablesFor(es), true
		k.setSmallValue(unsafe.Pointer(&value))
		k.execute(p.levels, p.inputLevels, p.strides, p.workersFor(es), &p.parallel)
		return nil
	}
	execute(typedKernels[T]{dst, src, value}, p.levels, p.strides, p.workersFor(int(unsafe.Sizeof(value))), &p.parallel)
	return nil
}

// RunStrided pads a strided view of src into the contiguous dst: the input
// element at multi-index (i0, i1, ...) is src[i0*strides[0] + i1*strides[1]
// + ...]. Strides are in elements and may be 0 (broadcast); transposed and
// sliced views need no copy.
func RunStrided[T any](p *Plan, dst, src []T, strides []int, value T) error {
	if p == nil {
		return errNilPlan
	}
	if err := p.checkStrides(len(src), strides); err != nil {
		return err
	}
	if err := p.checkLens(-1, len(dst)); err != nil {
		return err
	}
	if err := checkOverlap(dst, src); err != nil {
		return err
	}
	if p.outLen == 0 {
		return nil
	}
	if len(strides) == 0 {
		strides = unitStride // rank 0: the one element at src[0]
	}
	if es, ok := byteSized[T](); ok {
		k := newByteKernels(asBytes(dst), asBytes(src), es)
		k.setSmallValue(unsafe.Pointer(&value))
		k.execute(p.axes, p.inputAxes, strides, p.workersFor(es), &p.parallel)
		return nil
	}
	execute(typedKernels[T]{dst, src, value}, p.axes, strides, p.workersFor(int(unsafe.Sizeof(value))), &p.parallel)
	return nil
}

var unitStride = []int{1}

// RunBytes pads raw element storage: src and dst hold the plan's input and
// output elements of elemSize bytes each, and value is one element (nil or
// empty means all-zero bytes).
func (p *Plan) RunBytes(dst, src []byte, elemSize int, value []byte) error {
	if p == nil {
		return errNilPlan
	}
	if elemSize <= 0 {
		return fmt.Errorf("%w: element size %d is not positive", ErrInvalidSpec, elemSize)
	}
	if hi, lo := bits.Mul64(uint64(max(p.inLen, p.outLen)), uint64(elemSize)); hi != 0 || lo > math.MaxInt {
		return fmt.Errorf("%w: %d or %d elements of %d bytes", ErrTooLarge, p.inLen, p.outLen, elemSize)
	}
	if len(src) != p.inLen*elemSize {
		return fmt.Errorf("%w: src has %d bytes, shape %v of %d-byte elements needs %d", ErrShapeMismatch, len(src), p.in, elemSize, p.inLen*elemSize)
	}
	if len(dst) != p.outLen*elemSize {
		return fmt.Errorf("%w: dst has %d bytes, shape %v of %d-byte elements needs %d", ErrShapeMismatch, len(dst), p.out, elemSize, p.outLen*elemSize)
	}
	if len(value) != 0 && len(value) != elemSize {
		return fmt.Errorf("%w: value has %d bytes, element size is %d", ErrShapeMismatch, len(value), elemSize)
	}
	if err := checkOverlap(dst, src); err != nil {
		return err
	}
	if p.outLen == 0 {
		return nil
	}
	if p.runsFit(elemSize) {
		gatherRunsBytes(dst, src, elemSize, p.runs, value)
		return nil
	}
	if p.gathers(elemSize, true) {
		gatherBytes(dst, src, elemSize, p.gather, value)
		return nil
	}
	k := newByteKernels(dst, src, elemSize)
	k.tab, k.dense = p.tablesFor(elemSize), true
	k.setValue(value)
	k.execute(p.levels, p.inputLevels, p.strides, p.workersFor(elemSize), &p.parallel)
	return nil
}

// RunPacked pads tensors of bits-wide elements (4: int4, uint4, float4e2m1;
// 2: int2, uint2) packed into bytes over the flattened tensor, the first
// element in the least significant bits. The unused high bits of dst's last
// byte are written as zero; those of src are ignored. value is the pad
// element, below 1<<bits.
func (p *Plan) RunPacked(dst, src []byte, bits int, value uint8) error {
	if p == nil {
		return errNilPlan
	}
	if bits != 4 && bits != 2 {
		return fmt.Errorf("%w: %d-bit elements (want 4 or 2)", ErrInvalidSpec, bits)
	}
	if int(value) >= 1<<bits {
		return fmt.Errorf("%w: value %#x does not fit in %d bits", ErrInvalidSpec, value, bits)
	}
	perByte := 8 / bits
	inBytes, outBytes := ceilDiv(p.inLen, perByte), ceilDiv(p.outLen, perByte)
	if len(src) != inBytes {
		return fmt.Errorf("%w: src has %d bytes, shape %v of %d-bit elements needs %d", ErrShapeMismatch, len(src), p.in, bits, inBytes)
	}
	if len(dst) != outBytes {
		return fmt.Errorf("%w: dst has %d bytes, shape %v of %d-bit elements needs %d", ErrShapeMismatch, len(dst), p.out, bits, outBytes)
	}
	if err := checkOverlap(dst, src); err != nil {
		return err
	}
	if p.outLen == 0 {
		return nil
	}
	execute(packedKernels{dst: dst, src: src, bits: uint(bits), value: value}, p.levels, p.strides, 1, nil)
	if tail := p.outLen % perByte; tail != 0 {
		dst[outBytes-1] &= 1<<(tail*bits) - 1
	}
	return nil
}

// parallelMinBytes is the output size from which the default runs use
// more than one goroutine: below it, starting goroutines costs more than
// the second core saves. On 2 cores (BenchmarkSuite, 6 alternated runs),
// two goroutines against one: the 12.4 MiB cases d and h 19-24% faster,
// the 4.8 MiB case b 2% and the 4 MiB case k 10% slower, as streaming
// stores (streamMinBytes) make one goroutine as fast as memory allows
// there; the 1.3 MB outer-axis case 25% slower.
const parallelMinBytes = 8 << 20

// parallelMinTraffic is the input plus output bytes from which the default
// runs use more than one goroutine where the CPU's last-level cache keeps
// smaller runs and one core then moves them as fast as two (AMD,
// pad_amd64.go); 0 elsewhere.
var parallelMinTraffic = 0

// workersFor returns the number of goroutines a run whose elements have
// size bytes uses.
func (p *Plan) workersFor(size int) int {
	if p.workers > 0 {
		return p.workers
	}
	size = max(size, 1)
	if p.outLen < parallelMinBytes/size || p.inLen < parallelMinTraffic/size-p.outLen {
		return 1
	}
	return runtime.GOMAXPROCS(0)
}

var errNilPlan = fmt.Errorf("%w: nil Plan", ErrInvalidSpec)

// checkLens checks slice lengths against the plan's element counts; a
// negative length is not checked.
func (p *Plan) checkLens(src, dst int) error {
	if src >= 0 && src != p.inLen {
		return fmt.Errorf("%w: src has %d elements, shape %v needs %d", ErrShapeMismatch, src, p.in, p.inLen)
	}
	if dst >= 0 && dst != p.outLen {
		return fmt.Errorf("%w: dst has %d elements, output shape %v needs %d", ErrShapeMismatch, dst, p.out, p.outLen)
	}
	return nil
}

// checkStrides checks that a strided view of the plan's input shape stays
// inside a source of srcLen elements.
func (p *Plan) checkStrides(srcLen int, strides []int) error {
	if len(strides) != len(p.in) {
		return fmt.Errorf("%w: %d strides for rank %d", ErrInvalidSpec, len(strides), len(p.in))
	}
	for i, st := range strides {
		if st < 0 {
			return fmt.Errorf("%w: axis %d: stride %d is negative", ErrInvalidSpec, i, st)
		}
	}
	if p.inLen == 0 {
		return nil // an empty view reads nothing
	}
	last := 0 // offset of the view's last element
	for i, st := range strides {
		d := p.in[i]
		if st > 0 && d-1 > (math.MaxInt-last)/st {
			return fmt.Errorf("%w: axis %d: stride %d over %d elements", ErrTooLarge, i, st, d)
		}
		last += (d - 1) * st
	}
	if last >= srcLen {
		return fmt.Errorf("%w: strides %v of shape %v reach element %d, src has %d", ErrShapeMismatch, strides, p.in, last, srcLen)
	}
	return nil
}

// checkOverlap reports whether dst and src share memory.
func checkOverlap[T any](dst, src []T) error {
	if len(dst) == 0 || len(src) == 0 {
		return nil
	}
	size := unsafe.Sizeof(dst[0])
	d0 := uintptr(unsafe.Pointer(unsafe.SliceData(dst)))
	s0 := uintptr(unsafe.Pointer(unsafe.SliceData(src)))
	if d0 < s0+uintptr(len(src))*size && s0 < d0+uintptr(len(dst))*size {
		return ErrOverlap
	}
	return nil
}

func ceilDiv(a, b int) int { return a/b + btoi(a%b != 0) }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
