// Package suite is the benchmark suite of pad shared by the package's
// BenchmarkSuite (bench_test.go) and cmd/padbench: the cases of the peer
// harness (../shared/peers/cases.json) as Go data, a loader for that JSON
// format, and the conversion of a case to what a Plan and RunBytes take
// (shape, per-axis pads, mode name, element size, value bytes) plus the
// harness's deterministic input.
//
// The package does not import pad (bench_test.go is in package pad, which
// could not import a package that does): callers build the Spec from
// Resolved.Mode (a name pad.ParseMode accepts), Before and After.
package suite

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"unsafe"
)

// PeersPath is the peer harness's case file seen from the repository root
// (where go test runs the root package's benchmarks).
var PeersPath = filepath.Join("..", "shared", "peers", "cases.json")

// Case is one entry of the peer suite. Pads follow ONNX order: the begin
// pads of the padded axes, then their end pads. Axes (ONNX opset 18+) names
// the padded axes; empty means every axis in order. Value is the constant
// value, converted to the element type.
type Case struct {
	Name  string  `json:"name"`
	Desc  string  `json:"desc"`
	DType string  `json:"dtype"`
	Shape []int   `json:"shape"`
	Mode  string  `json:"mode"`
	Pads  []int   `json:"pads"`
	Axes  []int   `json:"axes,omitempty"`
	Value float64 `json:"value"`
}

// builtin is a copy of ../shared/peers/cases.json (TestBuiltinMatchesPeers
// checks that the two agree).
var builtin = []Case{
	{Name: "a_conv_const0", Desc: "conv-style zero pad of H,W by 1",
		DType: "float32", Shape: []int{1, 64, 56, 56}, Mode: "constant", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}, Value: 0},
	{Name: "b_reflect_hw3", Desc: "batch of images, reflect H,W by 3",
		DType: "float32", Shape: []int{8, 3, 224, 224}, Mode: "reflect", Pads: []int{0, 0, 3, 3, 0, 0, 3, 3}},
	{Name: "c_edge_small", Desc: "many small planes, edge H,W by 1",
		DType: "float32", Shape: []int{1, 256, 14, 14}, Mode: "edge", Pads: []int{0, 0, 1, 1, 0, 0, 1, 1}},
	{Name: "d_const_w16", Desc: "constant 0.5, pad W only by 16 on both sides",
		DType: "float32", Shape: []int{1, 3, 1024, 1024}, Mode: "constant", Pads: []int{0, 0, 0, 16, 0, 0, 0, 16}, Value: 0.5},
	{Name: "e_wrap_2d", Desc: "wrap axis 1 by 8 on both sides",
		DType: "float32", Shape: []int{64, 1024}, Mode: "wrap", Pads: []int{0, 8, 0, 8}},
	{Name: "f_outer_axis", Desc: "constant 0 on the outer axis only (two big memcpy-like blocks), given with axes=[0]",
		DType: "float32", Shape: []int{16, 128, 128}, Mode: "constant", Axes: []int{0}, Pads: []int{2, 2}, Value: 0},
	{Name: "g_u8_reflect", Desc: "uint8 reflect H,W by 2",
		DType: "uint8", Shape: []int{1, 32, 112, 112}, Mode: "reflect", Pads: []int{0, 0, 2, 2, 0, 0, 2, 2}},
	{Name: "h_f64_edge_all", Desc: "float64 edge, every axis by 1",
		DType: "float64", Shape: []int{4, 512, 512}, Mode: "edge", Pads: []int{1, 1, 1, 1, 1, 1}},
	{Name: "i_tiny_spec", Desc: "ONNX spec example, measures per-call overhead",
		DType: "float32", Shape: []int{3, 2}, Mode: "constant", Pads: []int{0, 2, 0, 0}, Value: 0},
	{Name: "j_crop_pad", Desc: "negative begin pads crop, positive end pads pad (constant 0)",
		DType: "float32", Shape: []int{1, 3, 224, 224}, Mode: "constant", Pads: []int{0, 0, -2, -2, 0, 0, 2, 2}, Value: 0},
	{Name: "k_tail_cols", Desc: "extra: zero tail pad of a matrix's rows (1000 -> 1024 columns), the shape spago's PadColumns can do",
		DType: "float32", Shape: []int{1024, 1000}, Mode: "constant", Pads: []int{0, 0, 0, 24}, Value: 0},
}

// Builtin returns a copy of the built-in suite, the peer suite's 11 cases.
func Builtin() []Case {
	out := make([]Case, len(builtin))
	for i, c := range builtin {
		c.Shape = append([]int(nil), c.Shape...)
		c.Pads = append([]int(nil), c.Pads...)
		if c.Axes != nil {
			c.Axes = append([]int(nil), c.Axes...)
		}
		out[i] = c
	}
	return out
}

// Parse reads a suite in the peer harness's format: {"cases": [...]}, other
// top-level keys ignored. Every case is checked with Resolve.
func Parse(data []byte) ([]Case, error) {
	var doc struct {
		Cases []Case `json:"cases"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Cases) == 0 {
		return nil, errors.New("no cases")
	}
	seen := map[string]bool{}
	for _, c := range doc.Cases {
		if c.Name == "" {
			return nil, errors.New("a case has no name")
		}
		if seen[c.Name] {
			return nil, fmt.Errorf("duplicate case name %q", c.Name)
		}
		seen[c.Name] = true
		if _, err := c.Resolve(); err != nil {
			return nil, fmt.Errorf("case %q: %w", c.Name, err)
		}
	}
	return doc.Cases, nil
}

// Load reads and parses a suite file.
func Load(path string) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cases, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cases, nil
}

// LoadOrBuiltin loads the suite at path, or returns the built-in suite if
// there is no such file. source says which: the path or "built-in".
func LoadOrBuiltin(path string) (cases []Case, source string, err error) {
	cases, err = Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Builtin(), "built-in", nil
	}
	if err != nil {
		return nil, "", err
	}
	return cases, path, nil
}

// DType is an element type of the suite.
type DType struct {
	Name  string
	Size  int // bytes per element
	Float bool
}

var dtypes = map[string]DType{
	"float32": {"float32", 4, true},
	"float64": {"float64", 8, true},
	"uint8":   {"uint8", 1, false},
	"int8":    {"int8", 1, false},
	"uint16":  {"uint16", 2, false},
	"int16":   {"int16", 2, false},
	"int32":   {"int32", 4, false},
	"uint32":  {"uint32", 4, false},
	"int64":   {"int64", 8, false},
	"uint64":  {"uint64", 8, false},
	"bool":    {"bool", 1, false},
}

// Resolved is a case turned into what pad's API takes.
type Resolved struct {
	Case
	Elem          DType
	Before, After []int // per axis, from Pads and Axes
	OutShape      []int
	InLen, OutLen int    // elements
	ValueBytes    []byte // the constant value as one little-endian element
}

// InBytes and OutBytes are the sizes of the input and output tensors.
func (r *Resolved) InBytes() int  { return r.InLen * r.Elem.Size }
func (r *Resolved) OutBytes() int { return r.OutLen * r.Elem.Size }

// Resolve checks the case and expands it to per-axis pads, output shape,
// sizes and the value bytes, as the peer harness does.
func (c Case) Resolve() (*Resolved, error) {
	dt, ok := dtypes[c.DType]
	if !ok {
		return nil, fmt.Errorf("unknown dtype %q", c.DType)
	}
	switch c.Mode {
	case "constant", "reflect", "edge", "wrap", "symmetric":
	default:
		return nil, fmt.Errorf("unknown mode %q", c.Mode)
	}
	rank := len(c.Shape)
	axes := c.Axes
	if len(axes) == 0 {
		axes = make([]int, rank)
		for i := range axes {
			axes[i] = i
		}
	}
	if len(c.Pads) != 2*len(axes) {
		return nil, fmt.Errorf("%d pads for %d axes (want 2 per axis)", len(c.Pads), len(axes))
	}
	r := &Resolved{Case: c, Elem: dt, Before: make([]int, rank), After: make([]int, rank), OutShape: make([]int, rank)}
	done := make([]bool, rank)
	for i, a := range axes {
		if a < 0 {
			a += rank
		}
		if a < 0 || a >= rank || done[a] {
			return nil, fmt.Errorf("bad or repeated axis %d", axes[i])
		}
		done[a] = true
		r.Before[a] = c.Pads[i]
		r.After[a] = c.Pads[i+len(axes)]
	}
	const maxElems = math.MaxInt / 8 // so that byte sizes fit in an int
	r.InLen, r.OutLen = 1, 1
	for a, d := range c.Shape {
		if d < 0 {
			return nil, fmt.Errorf("negative dim %d", d)
		}
		o := d + r.Before[a] + r.After[a]
		if o < 0 {
			return nil, fmt.Errorf("axis %d: output dim %d < 0", a, o)
		}
		r.OutShape[a] = o
		if d > 0 && r.InLen > maxElems/d || o > 0 && r.OutLen > maxElems/o {
			return nil, errors.New("tensor too large")
		}
		r.InLen *= d
		r.OutLen *= o
	}
	if !dt.Float && c.Value != math.Trunc(c.Value) {
		return nil, fmt.Errorf("value %g is not an integer for dtype %s", c.Value, dt.Name)
	}
	r.ValueBytes = valueBytes(c.Value, dt)
	return r, nil
}

func valueBytes(v float64, dt DType) []byte {
	b := make([]byte, 8)
	switch dt.Name {
	case "float32":
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case "float64":
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	case "bool":
		if v != 0 {
			b[0] = 1
		}
	default: // integers: two's complement, truncated to the element size
		binary.LittleEndian.PutUint64(b, uint64(int64(v)))
	}
	return b[:dt.Size]
}

// Input returns the harness's deterministic input for the case (distinct,
// finite values), 64-byte aligned.
func (r *Resolved) Input() []byte {
	b := AlignedBytes(r.InBytes())
	size := r.Elem.Size
	x := uint64(0x9E3779B97F4A7C15)
	for i := 0; i < r.InLen; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		e := b[i*size : (i+1)*size]
		switch r.DType {
		case "float32":
			binary.LittleEndian.PutUint32(e, math.Float32bits(float32(int32(x>>40)-1<<23)/256))
		case "float64":
			binary.LittleEndian.PutUint64(e, math.Float64bits(float64(int64(x>>11)-1<<52)/65536))
		case "bool":
			e[0] = byte(x>>33) & 1
		default:
			for k := range e {
				e[k] = byte(x >> (8 * k))
			}
		}
	}
	return b
}

// AlignedBytes returns n zeroed bytes whose start is 64-byte aligned, as the
// peer harness allocates its buffers.
func AlignedBytes(n int) []byte {
	words := make([]uint64, (n+127)/8)
	b := unsafe.Slice((*byte)(unsafe.Pointer(&words[0])), len(words)*8)
	off := (64 - int(uintptr(unsafe.Pointer(&b[0]))%64)) % 64
	return b[off : off+n : off+n]
}
