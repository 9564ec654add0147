package main

import (
	"fmt"
	"strings"
)

// param is one argument of a kernel. Every argument is a pointer or an int:
// 8 bytes on the ABI0 stack frame.
type param struct {
	name, typ string
}

// kernel is one assembly function: its Go signature, the doc comment of its
// Go declaration, and the body, which gets the register of each argument by
// name (the prologue loads argument i into Ri).
type kernel struct {
	name   string
	params []param
	doc    string
	body   func(a *asm, arg map[string]string)
}

// asm accumulates the text of one function.
type asm struct {
	b      strings.Builder
	labels map[string]int
}

func newAsm() *asm { return &asm{labels: map[string]int{}} }

func (a *asm) String() string { return a.b.String() }

// inst emits one instruction.
func (a *asm) inst(format string, args ...any) {
	fmt.Fprintf(&a.b, "\t"+format+"\n", args...)
}

// comment emits a comment line.
func (a *asm) comment(format string, args ...any) {
	fmt.Fprintf(&a.b, "\n\t// "+format+"\n", args...)
}

// label places a label.
func (a *asm) label(l string) {
	fmt.Fprintf(&a.b, "%s:\n", l)
}

// newLabel returns a label unique in the function: hint, an underscore
// and a number.
func (a *asm) newLabel(hint string) string {
	a.labels[hint]++
	return fmt.Sprintf("%s_%d", hint, a.labels[hint])
}

// function emits the TEXT line, the argument loads and the body of k.
func (a *asm) function(k kernel) {
	frame := 8 * len(k.params)
	fmt.Fprintf(&a.b, "// func %s(", k.name)
	for i, p := range k.params {
		if i > 0 {
			a.b.WriteString(", ")
		}
		a.b.WriteString(p.name + " " + p.typ)
	}
	a.b.WriteString(")\n")
	fmt.Fprintf(&a.b, "TEXT ·%s(SB), NOSPLIT, $0-%d\n", k.name, frame)
	arg := map[string]string{}
	for i, p := range k.params {
		r := fmt.Sprintf("R%d", i)
		arg[p.name] = r
		a.inst("MOVD %s+%d(FP), %s", p.name, 8*i, r)
	}
	k.body(a, arg)
	a.inst("RET")
}

// Register names. V registers are named by number: v(16, "B16") is
// "V16.B16", f(16) is "F16" (the low 128 bits of V16 for FMOVQ, FLDPQ and
// FSTPQ, the low 64 or 32 bits for FMOVD and FMOVS).
func v(n int, arr string) string { return fmt.Sprintf("V%d.%s", n, arr) }
func f(n int) string             { return fmt.Sprintf("F%d", n) }

// vlist is a register list of consecutive V registers for VLD1 and VST1.
func vlist(first, count int, arr string) string {
	var rs []string
	for i := range count {
		rs = append(rs, v(first+i, arr))
	}
	return "[" + strings.Join(rs, ", ") + "]"
}

// log2 of a power of two.
func log2(w int) int {
	n := 0
	for w > 1 {
		w >>= 1
		n++
	}
	return n
}

// Scalar loads and stores of w bytes, zero-extending.
var (
	load  = map[int]string{1: "MOVBU", 2: "MOVHU", 4: "MOVWU", 8: "MOVD"}
	store = map[int]string{1: "MOVB", 2: "MOVH", 4: "MOVW", 8: "MOVD"}
)
