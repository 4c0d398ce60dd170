package schema_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tickwork/tickwork/schema"
)

// prelude declares what the bad schemas of TestErrors refer to; their own
// text starts on line 7.
const prelude = `const W: float32 = 2048
domain Actors(capacity: 100)
table Unit(domain: Actors) { Health: int32 }
table Body(domain: Actors) { X: float32  Y: float32 }
table Shot(capacity: 64) { X: float32  TTL: int32  Target: ref Body }
event table Hit(capacity: 64, lifetime: next_frame) { Target: ref Unit  Damage: int32 }
`

func TestPreludeIsValid(t *testing.T) {
	_, err := schema.Load("bad.tw", []byte(prelude))
	require.NoError(t, err)
}

// TestErrors checks the exact message of each syntax and semantic error,
// its kind, and that it is one *schema.Error.
func TestErrors(t *testing.T) {
	cases := []struct {
		name string
		kind error
		src  string
		want string
	}{
		{"syntax/missing type", schema.ErrSyntax,
			"table T(capacity: 1) { X: }",
			"bad.tw:7:27: unexpected \"}\"; expected a type (int32, int64, float32, float64, bool, ref TABLE, a struct or [N]TYPE)"},
		{"syntax/missing colon", schema.ErrSyntax,
			"table T(capacity: 1) { X float32 }",
			"bad.tw:7:26: unexpected name float32; expected \":\""},
		{"syntax/unfinished expression", schema.ErrSyntax,
			"system S(phase: update) { from Shot s set s.X = 1 + }",
			"bad.tw:7:53: unexpected \"}\"; expected an expression"},
		{"syntax/== in set", schema.ErrSyntax,
			"system S(phase: update) { from Shot s set s.X == 1 }",
			"bad.tw:7:47: unexpected \"==\"; expected \"=\", \"+=\", \"-=\" or \"*=\"; set assigns with =, == compares"},
		{"syntax/arm without braces", schema.ErrSyntax,
			"system S(phase: update) { from Shot s match { s.X > 0 => set s.X = 1 } }",
			"bad.tw:7:58: unexpected keyword set; expected \"{\""},
		{"syntax/bad character", schema.ErrSyntax,
			"table T(capacity: 1) { X: int32 } $",
			"bad.tw:7:35: unexpected character '$'; names are ASCII letters, digits and _, comments start with //"},
		{"syntax/reserved word as name", schema.ErrSyntax,
			"table T(capacity: 1) { count: int32 }",
			"bad.tw:7:24: unexpected keyword count; expected \"}\"; count is a reserved word: choose another name"},
		{"syntax/chained comparison", schema.ErrSyntax,
			"system S(phase: update) { from Shot s match { 0 < s.X < W => {} } }",
			"bad.tw:7:55: unexpected \"<\"; expected \"=>\"; comparisons do not chain: join them with and"},
		{"syntax/== in a join's on", schema.ErrSyntax,
			"query A() { from Unit u join Unit v on v == u select u.Health }",
			"bad.tw:7:42: unexpected \"==\"; expected \"select\""},
		{"syntax/< in a join's on", schema.ErrSyntax,
			"query A() { from Unit u join Unit v on v < u select u.Health }",
			"bad.tw:7:42: unexpected \"<\"; expected \"select\""},
		{"syntax/!= in a join's on", schema.ErrSyntax,
			"query A() { from Unit u join Unit v on v != u select u.Health }",
			"bad.tw:7:42: unexpected \"!=\"; expected \"select\""},
		{"syntax/chained ==", schema.ErrSyntax,
			"system S(phase: update) { from Shot s match { 0 < s.X == W => {} } }",
			"bad.tw:7:55: unexpected \"==\"; expected \"=>\"; comparisons do not chain: join them with and"},
		{"syntax/shift left", schema.ErrSyntax,
			"system S(phase: update) { from Shot s set s.X = s.X << 2 }",
			"bad.tw:7:53: unexpected \"<<\"; shifts are not in the language: multiply or divide by a power of two instead " +
				"(x * 16 for x << 4; x / 16 for x >> 4 when x is not negative, since / truncates toward zero), " +
				"or compute the value in a hand-written (extern) system"},
		{"syntax/shift right in a constant", schema.ErrSyntax,
			"const K: int32 = 64 >> 2",
			"bad.tw:7:21: unexpected \">>\"; shifts are not in the language: multiply or divide by a power of two instead " +
				"(x * 16 for x << 4; x / 16 for x >> 4 when x is not negative, since / truncates toward zero), " +
				"or compute the value in a hand-written (extern) system"},
		{"syntax/no from", schema.ErrSyntax,
			"system S(phase: update) { set s.X = 1 }",
			"bad.tw:7:27: unexpected keyword set; expected from TABLE VAR (a system body starts with the rows it runs over)"},
		{"syntax/not a declaration", schema.ErrSyntax,
			"foo",
			"bad.tw:7:1: unexpected name foo; expected a declaration (const, domain, table, event table, lifecycle, struct, resource, index, extern system, system or query)"},
		{"duplicate/table and event table", schema.ErrDuplicate,
			"event table Body(capacity: 1, lifetime: this_frame) { A: int32 }",
			"bad.tw:7:13: event table \"Body\" is already declared as a table at bad.tw:4:7; rename one of them"},
		{"duplicate/column", schema.ErrDuplicate,
			"table T(capacity: 1) { A: int32  A: float32 }",
			"bad.tw:7:34: table T has two columns named \"A\" (the first at bad.tw:7:24); rename one"},
		{"duplicate/option", schema.ErrDuplicate,
			"table T(capacity: 1, capacity: 2) { A: int32 }",
			"bad.tw:7:22: option \"capacity\" of table T is given twice; keep one"},
		{"duplicate/emit field", schema.ErrDuplicate,
			"system S(phase: update) { from Shot s emit Hit { Target: s.Target, Damage: 1, Damage: 2 } }",
			"bad.tw:7:79: field Damage of Hit is given twice in this emit (first at bad.tw:7:68); give it once"},
		{"duplicate/row variable", schema.ErrDuplicate,
			"system S(phase: update) { from Shot s join Body s on s.Target }",
			"bad.tw:7:49: row variable \"s\" is already declared at bad.tw:7:37; use another name"},
		{"duplicate/variable named as a constant", schema.ErrDuplicate,
			"system S(phase: update) { from Shot W }",
			"bad.tw:7:37: row variable \"W\" has the name of the constant declared at bad.tw:1:7; use another name"},
		{"unknown/table in from", schema.ErrUnknown,
			"system S(phase: update) { from Shots s }",
			"bad.tw:7:32: unknown table \"Shots\" in from of system S; did you mean \"Shot\"?"},
		{"unknown/column", schema.ErrUnknown,
			"system S(phase: update) { from Shot s set s.Y = 1 }",
			"bad.tw:7:45: unknown column \"Y\" in s.Y (s is a row of table Shot); did you mean \"X\"?"},
		{"unknown/constant", schema.ErrUnknown,
			"system S(phase: update) { from Shot s set s.X = Q }",
			"bad.tw:7:49: unknown constant or row variable \"Q\"; did you mean \"W\"?"},
		{"unknown/ref table", schema.ErrUnknown,
			"table T(capacity: 1) { Owner: ref Bdy }",
			"bad.tw:7:35: unknown table \"Bdy\" in ref type of table T column Owner; did you mean \"Body\"?"},
		{"unknown/phase", schema.ErrUnknown,
			"system S(phase: fixed) { from Shot s }",
			"bad.tw:7:17: unknown phase \"fixed\" of system S; the phases are frame_start, fixed_update, update, late_update, frame_end"},
		{"unknown/option", schema.ErrUnknown,
			"table T(capacity: 1, chunkrows: 64) { A: int32 }",
			"bad.tw:7:22: unknown option \"chunkrows\" of table T; did you mean \"chunk_rows\"?"},
		{"unknown/system in after", schema.ErrUnknown,
			"system S(phase: update, after: Fire) { from Shot s }",
			"bad.tw:7:32: unknown system \"Fire\" in after of system S; declare it, or name a hand-written one with extern system Fire"},
		{"unknown/type", schema.ErrUnknown,
			"table T(capacity: 1) { A: int }",
			"bad.tw:7:27: unknown type \"int\" in table T column A; types are int32, int64, float32, float64, bool, ref TABLE and the declared structs"},
		{"unknown/function", schema.ErrUnknown,
			"system S(phase: update) { from Shot s set s.X = sqrt(s.X) }",
			"bad.tw:7:49: unknown function \"sqrt\"; the functions are found, missing, index, floor and the conversions int32, int64, float32, float64"},
		{"unknown/event table in emit", schema.ErrUnknown,
			"system S(phase: update) { from Shot s emit Hits { Target: s.Target, Damage: 1 } }",
			"bad.tw:7:44: unknown event table \"Hits\" in emit; did you mean \"Hit\"?"},
		{"unknown/lifetime", schema.ErrUnknown,
			"event table E(capacity: 1, lifetime: forever) { A: int32 }",
			"bad.tw:7:38: unknown lifetime \"forever\" of event table E; lifetimes are next_frame and this_frame"},
		{"unknown/world value", schema.ErrUnknown,
			"system S(phase: update) { from Shot s set s.X += @time }",
			"bad.tw:7:50: unknown @time; the world values are @dt (seconds) and @tick"},
		{"unknown/row variable", schema.ErrUnknown,
			"system S(phase: update) { from Shot s set x.X = 1 }",
			"bad.tw:7:43: unknown row variable \"x\"; did you mean \"s\"?"},
		{"unknown/event field", schema.ErrUnknown,
			"system S(phase: update) { from Shot s emit Hit { Target: s.Target, Damage: 1, Dmg: 2 } }",
			"bad.tw:7:79: event table Hit has no field \"Dmg\"; its fields are Target, Damage"},
		{"unknown/domain", schema.ErrUnknown,
			"table T(domain: Actor) { A: int32 }",
			"bad.tw:7:17: unknown domain \"Actor\" of table T; did you mean \"Actors\"?"},
		{"type/mismatched operands", schema.ErrType,
			"system S(phase: update) { from Shot s set s.X = s.X + s.TTL }",
			"bad.tw:7:53: mismatched types float32 and int32 in +; convert one, as float32(...)"},
		{"type/float constant into int column", schema.ErrType,
			"system S(phase: update) { from Shot s set s.TTL = 1.5 }",
			"bad.tw:7:51: constant 1.5 is not an integer; it cannot be int32"},
		{"type/ref to an event table", schema.ErrType,
			"table T(capacity: 1) { H: ref Hit }",
			"bad.tw:7:31: ref Hit in table T column H: Hit is an event table; ref names a table, whose rows have handles"},
		{"type/emit field type", schema.ErrType,
			"system S(phase: update) { from Shot s emit Hit { Target: s.Target, Damage: s.X } }",
			"bad.tw:7:76: cannot use s.X (float32) as int32 in field Damage of Hit"},
		{"type/condition not bool", schema.ErrType,
			"system S(phase: update) { from Shot s match { s.TTL => {} } }",
			"bad.tw:7:47: a match arm's condition must be a bool, not s.TTL"},
		{"type/float to int conversion", schema.ErrType,
			"system S(phase: update) { from Shot s set s.TTL = int32(s.X) }",
			"bad.tw:7:51: cannot convert s.X to int32: float to integer conversion of out-of-range values differs between machines"},
		{"type/join on a non-ref column", schema.ErrType,
			"system S(phase: update) { from Shot s join Body b on s.X }",
			"bad.tw:7:54: join Body b on s.X: s.X is float32, and a join into Body needs a ref of a table of domain Actors"},
		{"type/join outside the ref's domain", schema.ErrType,
			"table Solo(capacity: 8) { A: int32 }\nsystem S(phase: update) { from Shot s join Solo o on s.Target match { s.Target == o => {} } }",
			"bad.tw:8:54: join Solo o on s.Target: s.Target is ref Body, and a join into Solo needs a ref Solo"},
		{"type/refs of two tables", schema.ErrType,
			"table Solo(capacity: 8) { Peer: ref Solo  Who: ref Body }\nsystem S(phase: update) { from Solo o match { o.Peer == o.Who => {} } }",
			"bad.tw:8:57: mismatched types ref Solo and ref Body in =="},
		{"type/emit into a table", schema.ErrType,
			"system S(phase: update) { from Shot s emit Body { X: 1 } }",
			"bad.tw:7:44: emit Body: Body is a table, not an event table"},
		{"type/join an event table", schema.ErrType,
			"system S(phase: update) { from Shot s join Hit h on s.Target }",
			"bad.tw:7:44: join Hit in system S: Hit is an event table; a join probes a table through a ref"},
		{"type/+= on bool", schema.ErrType,
			"table F(capacity: 8) { On: bool }\nsystem S(phase: update) { from F f set f.On += true }",
			"bad.tw:8:40: += needs a number column; f.On is bool"},
		{"type/index of a number", schema.ErrType,
			"system S(phase: update) { from Shot s emit Hit { Target: s.Target, Damage: index(s.X) } }",
			"bad.tw:7:82: index needs a ref (a handle), not s.X"},
		{"type/not of a number", schema.ErrType,
			"system S(phase: update) { from Shot s match { not s.TTL => {} } }",
			"bad.tw:7:47: not needs a bool operand, not s.TTL"},
		{"type/@dt as an integer", schema.ErrType,
			"system S(phase: update) { from Shot s set s.TTL = @dt }",
			"bad.tw:7:51: cannot use @dt (seconds, a float) as int32 in set s.TTL; convert the other operand, as float32(...)"},
		{"type/% of floats", schema.ErrType,
			"system S(phase: update) { from Shot s set s.X = W % 2 }",
			"bad.tw:7:51: % needs integers, not float32"},
		{"type/from a constant", schema.ErrType,
			"system S(phase: update) { from W w }",
			"bad.tw:7:32: from W in system S: W is a constant; from names a table or an event table"},
		{"type/ref constant", schema.ErrType,
			"const C: ref Body = 1",
			"bad.tw:7:10: constant \"C\" cannot be a ref; constants are int32, int64, float32, float64 or bool"},
		{"value/zero capacity", schema.ErrValue,
			"table T(capacity: 0) { A: int32 }",
			"bad.tw:7:19: option capacity of table T is 0; it must be between 1 and 1073741824"},
		{"value/grain 0", schema.ErrValue,
			"system S(phase: update, grain: 0) { from Shot s set s.X = 0 }",
			"bad.tw:7:32: option grain of system S is 0; it must be between 1 and 65536"},
		{"value/chunk rows not a power of two", schema.ErrValue,
			"table T(capacity: 100, chunk_rows: 100) { A: int32 }",
			"bad.tw:7:36: option chunk_rows of table T is 100; it must be a power of two (64, 128, ...)"},
		{"value/constant overflow", schema.ErrValue,
			"const Big: int32 = 3000000000",
			"bad.tw:7:20: constant 3000000000 overflows int32"},
		{"value/division by zero", schema.ErrValue,
			"system S(phase: update) { from Shot s set s.X = s.X / 0 }",
			"bad.tw:7:53: division by zero"},
		{"value/integer division by a column", schema.ErrValue,
			"system S(phase: update) { from Shot s set s.TTL = 10 / s.TTL }",
			"bad.tw:7:54: integer / needs a constant divisor: a zero divisor at run time would panic the kernel"},
		{"value/constant cycle", schema.ErrValue,
			"const A: int32 = B + 1\nconst B: int32 = A",
			"bad.tw:7:7: constant \"A\" depends on itself; give it a value that does not name it, directly or through other constants"},
		{"value/capacity of a domain's table", schema.ErrValue,
			"table T(domain: Actors, capacity: 10) { A: int32 }",
			"bad.tw:7:25: table T is in domain Actors, which sets its capacity; remove capacity here or set it on the domain"},
		{"value/@dt in a constant", schema.ErrValue,
			"const D: float32 = @dt",
			"bad.tw:7:20: @dt is not constant; a constant expression uses literals and constants only"},
		{"value/system before itself", schema.ErrValue,
			"system S(phase: update, before: S) { from Shot s }",
			"bad.tw:7:33: system S names itself in before; a system cannot run before itself"},
		{"value/two-system cycle", schema.ErrValue,
			"system A(phase: update, before: B) { from Shot s }\nsystem B(phase: update, before: A) { from Shot s }",
			"bad.tw:7:8: systems A, B order themselves in a cycle (A runs before B runs before A); drop one of these before/after constraints"},
		{"value/cycle of before and after", schema.ErrValue,
			"system C(phase: update, after: A) { from Shot s }\nsystem A(phase: update, after: B) { from Shot s }\nsystem B(phase: update, after: C) { from Shot s }",
			"bad.tw:7:8: systems C, B, A order themselves in a cycle (C runs before B runs before A runs before C); drop one of these before/after constraints"},
		{"value/else not last", schema.ErrValue,
			"system S(phase: update) { from Shot s match { else => {} s.X > 0 => {} } }",
			"bad.tw:7:47: else must be the last arm of a match; the arms after it never run"},
		{"missing/phase", schema.ErrMissing,
			"system S { from Shot s }",
			"bad.tw:7:8: system S has no phase; add (phase: P), P one of frame_start, fixed_update, update, late_update, frame_end"},
		{"missing/emit field", schema.ErrMissing,
			"system S(phase: update) { from Shot s emit Hit { Target: s.Target } }",
			"bad.tw:7:44: emit Hit does not give field Damage; an emit gives every field of the event"},
		{"missing/lifetime", schema.ErrMissing,
			"event table E(capacity: 8) { A: int32 }",
			"bad.tw:7:13: event table E has no lifetime; add lifetime: next_frame (read in the next frame) or lifetime: this_frame"},
		{"missing/table capacity", schema.ErrMissing,
			"table T { A: int32 }",
			"bad.tw:7:7: table T has no capacity; add (capacity: N), the most rows it holds, or (domain: D)"},
		{"access/write a joined row in parallel", schema.ErrAccess,
			"system S(phase: update) { from Shot s join Body b on s.Target set b.X = 0 }",
			"bad.tw:7:67: cannot set b.X: b is a Body row joined through s.Target, and rows of Shot run in parallel, so two of them may write one Body row; only a system over an event table (one event at a time) writes joined rows"},
		{"access/write an event field", schema.ErrAccess,
			"system S(phase: update) { from Hit h set h.Damage = 0 }",
			"bad.tw:7:42: cannot set h.Damage: h is an event of Hit, and events are read-only"},
		{"access/unguarded join read", schema.ErrAccess,
			"system S(phase: update) { from Shot s join Body b on s.Target set s.X = b.X }",
			"bad.tw:7:73: b.X is read where join b may have missed; test missing(b) in an earlier match arm, or found(b) and ... in this arm's condition"},
		{"access/join read of a column written in parallel", schema.ErrAccess,
			"table T(capacity: 8) { Peer: ref T  V: float32 }\nsystem S(phase: update) { from T a join T b on a.Peer match { found(b) => { set a.V = b.V } } }",
			"bad.tw:8:87: cannot read b.V through join b: this system writes T.V on its own rows, which run in parallel, so a joined row may change while it is read; split the system in two"},
		{"access/delete an event", schema.ErrAccess,
			"system S(phase: update) { from Hit h delete h }",
			"bad.tw:7:45: cannot delete h: it is an event of Hit; events are retired by their lifetime"},
		{"access/unguarded delete of a joined entity", schema.ErrAccess,
			"system S(phase: update) { from Hit h join Unit u on h.Target delete entity u }",
			"bad.tw:7:76: u is deleted where join u may have missed; test missing(u) in an earlier match arm, or found(u) and ... in this arm's condition"},
		{"access/guard after a found arm", schema.ErrAccess,
			"system S(phase: update) { from Shot s join Body b on s.Target match { found(b) => {} else => { set s.X = b.X } } }",
			"bad.tw:7:106: b.X is read where join b may have missed; test missing(b) in an earlier match arm, or found(b) and ... in this arm's condition"},
		{"access/guard through or", schema.ErrAccess,
			"system S(phase: update) { from Shot s join Body b on s.Target match { found(b) or s.X > 0 => { set s.X = b.X } } }",
			"bad.tw:7:106: b.X is read where join b may have missed; test missing(b) in an earlier match arm, or found(b) and ... in this arm's condition"},
		{"value/before against the phase order", schema.ErrValue,
			"system A(phase: update, before: B) { from Shot s }\nsystem B(phase: fixed_update) { from Shot s }",
			"bad.tw:7:33: system A (phase update) cannot run before B (phase fixed_update): phases run in the order frame_start, fixed_update, update, late_update, frame_end; drop before: B or move one of them to the other's phase"},
		{"value/after against the phase order", schema.ErrValue,
			"system A(phase: update) { from Shot s }\nsystem B(phase: fixed_update, after: A) { from Shot s }",
			"bad.tw:8:38: system B (phase fixed_update) cannot run after A (phase update): phases run in the order frame_start, fixed_update, update, late_update, frame_end; drop after: A or move one of them to the other's phase"},
		{"access/two unordered writers", schema.ErrAccess,
			"system A(phase: update) { from Shot s set s.X = 1 }\nsystem B(phase: update) { from Shot s set s.X += 1 }",
			"bad.tw:8:8: systems A (bad.tw:7:8) and B of phase update are not ordered, and both write Shot.X; order them: add after: A to system B, or before: B to system A"},
		{"access/unordered writer and reader", schema.ErrAccess,
			"system A(phase: update) { from Shot s set s.TTL = 1 }\nsystem B(phase: update) { from Shot s join Body b on s.Target match { found(b) => { set s.X = b.X } } }\n" +
				"system C(phase: update, after: A) { from Body b set b.X = b.Y }",
			"bad.tw:9:8: systems B (bad.tw:8:8) and C of phase update are not ordered, and C writes Body.X, which B reads; order them: add after: B to system C, or before: C to system B"},
		{"access/unordered deletes in one domain", schema.ErrAccess,
			"system A(phase: update) { from Unit u delete u }\nsystem B(phase: update) { from Body b delete entity b }",
			"bad.tw:8:8: systems A (bad.tw:7:8) and B of phase update are not ordered, and both delete from domain Actors (A from Unit, B from Body); order them: add after: A to system B, or before: B to system A"},
		{"access/unordered emitters", schema.ErrAccess,
			"system A(phase: update) { from Shot s emit Hit { Target: s.Target, Damage: 1 } }\nsystem B(phase: update) { from Shot s emit Hit { Target: s.Target, Damage: 2 } }",
			"bad.tw:8:8: systems A (bad.tw:7:8) and B of phase update are not ordered, and both emit Hit; order them: add after: A to system B, or before: B to system A"},
		{"access/emit and consume in one frame", schema.ErrAccess,
			"event table Now(capacity: 8, lifetime: this_frame) { V: int32 }\nsystem A(phase: update) { from Now n }\nsystem B(phase: update) { from Shot s emit Now { V: 1 } }",
			"bad.tw:9:8: systems A (bad.tw:8:8) and B of phase update are not ordered, and B emits Now, which A consumes in the same frame; order them: add after: A to system B, or before: B to system A"},
		{"unknown/struct field", schema.ErrUnknown,
			"struct V { X: float32 }\ntable T(capacity: 8) { P: V }\nsystem S(phase: update) { from T t set t.P.Z = 1 }",
			"bad.tw:9:44: unknown field \"Z\" in t.P.Z (t.P is a V); did you mean \"X\"?"},
		{"type/struct named whole", schema.ErrType,
			"struct V { X: float32 }\ntable T(capacity: 8) { P: V  A: float32 }\nsystem S(phase: update) { from T t set t.A = t.P }",
			"bad.tw:9:46: t.P is a V struct: name one of its fields (t.P.X), or set it whole with set t.P = ..."},
		{"type/field of a plain column", schema.ErrType,
			"struct V { X: float32 }\ntable T(capacity: 8) { P: V  A: float32 }\nsystem S(phase: update) { from T t set t.A.X = 1 }",
			"bad.tw:9:44: t.A is float32, not a struct: it has no field \"X\""},
		{"type/mismatched structs", schema.ErrType,
			"struct V { X: float32 }\nstruct U { X: float32 }\ntable T(capacity: 8) { P: V  Q: U }\nsystem S(phase: update) { from T t set t.P = t.Q }",
			"bad.tw:10:46: mismatched struct types: t.Q is a U, and the assignment sets a V"},
		{"type/struct field in a comparison", schema.ErrType,
			"struct V { X: float32  Y: float32 }\ntable T(capacity: 8) { P: V }\nsystem S(phase: update) { from T t match { t.P > 0 => { set t.P = 0 } } }",
			"bad.tw:9:44: t.P is a V struct: name one of its fields (t.P.X, t.P.Y), or set it whole with set t.P = ..."},
		{"type/nested struct", schema.ErrType,
			"struct V { X: float32 }\nstruct N { A: V }",
			"bad.tw:8:15: field A of struct N is struct V; struct fields are int32, int64, float32, float64, bool or ref TABLE (give its fields here)"},
		{"type/struct event field", schema.ErrType,
			"struct V { X: float32 }\nevent table E(capacity: 8, lifetime: next_frame) { P: V }",
			"bad.tw:8:55: field P of event table E is struct V; event fields are int32, int64, float32, float64, bool or ref TABLE (give the struct's fields one by one)"},
		{"type/struct constant", schema.ErrType,
			"struct V { X: float32 }\nconst C: V = 1",
			"bad.tw:8:10: constant \"C\" cannot be struct V; constants are int32, int64, float32, float64 or bool"},
		{"missing/empty struct", schema.ErrMissing,
			"struct V { }",
			"bad.tw:7:8: struct V has no fields; give it at least one, FIELD: TYPE"},
		{"duplicate/struct field", schema.ErrDuplicate,
			"struct V { X: float32  X: int32 }",
			"bad.tw:7:24: struct V has two fields named \"X\" (the first at bad.tw:7:12); rename one"},
		{"type/bool field += through a struct", schema.ErrType,
			"struct V { X: float32  B: bool }\ntable T(capacity: 8) { P: V }\nsystem S(phase: update) { from T t set t.P += 1 }",
			"bad.tw:9:40: += needs a number column; t.P.B is bool"},
		{"when/not a bool", schema.ErrType,
			"resource R { N: int32 = 0 }\nsystem S(phase: update, when: R.N) { from Shot s set s.X = 1 }",
			"bad.tw:8:31: the when condition of system S must be a bool, not R.N; compare it, such as R.N != 0"},
		{"when/reads a row", schema.ErrAccess,
			"system S(phase: update, when: s.X > 0) { from Shot s set s.X = 1 }",
			"bad.tw:7:31: the when condition of system S reads s.X: a condition reads resources (RESOURCE.FIELD), constants, @tick and @dt, not rows; test the row in the body with match"},
		{"when/reads a table", schema.ErrAccess,
			"system S(phase: update, when: Unit.Health > 0) { from Shot s set s.X = 1 }",
			"bad.tw:7:31: the when condition of system S reads Unit.Health: a condition reads resources (RESOURCE.FIELD), constants, @tick and @dt, not rows; test the row in the body with match"},
		{"when/unknown resource", schema.ErrUnknown,
			"resource Match { On: bool = true }\nsystem S(phase: update, when: Mach.On) { from Shot s set s.X = 1 }",
			"bad.tw:8:31: unknown resource \"Mach\" in the when condition of system S; did you mean \"Match\"?"},
		{"when/unknown field", schema.ErrUnknown,
			"resource Match { On: bool = true }\nsystem S(phase: update, when: Match.Of) { from Shot s set s.X = 1 }",
			"bad.tw:8:37: unknown field \"Of\" of resource Match; did you mean \"On\"?"},
		{"when/constant", schema.ErrValue,
			"system S(phase: update, when: W > 1) { from Shot s set s.X = 1 }",
			"bad.tw:7:31: the when condition of system S is constant (always true); drop the option, or read a resource field, @tick or @dt"},
		{"when/list", schema.ErrType,
			"system S(phase: update, when: [W]) { from Shot s set s.X = 1 }",
			"bad.tw:7:31: option when of system S is a list; give a bool expression over resources (RESOURCE.FIELD), constants, @tick and @dt, such as when: Match.On"},
		{"when/a write", schema.ErrSyntax,
			"resource Match { On: bool = true }\nsystem S(phase: update, when: Match.On = false) { from Shot s set s.X = 1 }",
			"bad.tw:8:40: unexpected \"=\"; expected \")\"; only set assigns (== compares; a when condition only reads: a hand-written system writes a resource)"},
		{"unknown/resource field", schema.ErrUnknown,
			"resource R { Speed: float32 = 1 }\nsystem S(phase: update) { from Shot s set s.X = R.Sped }",
			"bad.tw:8:51: unknown field \"Sped\" of resource R; did you mean \"Speed\"?"},
		{"access/write a resource", schema.ErrAccess,
			"resource R { Speed: float32 = 1 }\nsystem S(phase: update) { from Shot s set R.Speed = s.X }",
			"bad.tw:8:43: cannot set R.Speed: R is a resource, read-only in declared bodies; a hand-written system writes it (tickwork.WriteResource), or the host between frames (Resource.Get)"},
		{"type/resource named whole", schema.ErrType,
			"resource R { Speed: float32 = 1 }\nsystem S(phase: update) { from Shot s set s.X = R }",
			"bad.tw:8:49: R is a resource, not a value; name one of its fields (R.Speed)"},
		{"type/resource initial value", schema.ErrType,
			"resource R { Speed: float32 = true }",
			"bad.tw:7:31: cannot use true (bool) as float32 in field Speed of resource R"},
		{"value/resource initial value not constant", schema.ErrValue,
			"resource R { Speed: float32 = @dt }",
			"bad.tw:7:31: @dt is not constant; a constant expression uses literals and constants only"},
		{"type/ref resource field", schema.ErrType,
			"resource R { Who: ref Body }",
			"bad.tw:7:19: field Who of resource R is a ref; resource fields are int32, int64, float32, float64, bool or a struct (a handle in a resource is a hand-written system's)"},
		{"type/struct resource field with a value", schema.ErrType,
			"struct V { X: float32 }\nresource R { W: V = 1 }",
			"bad.tw:8:21: field W of resource R is struct V, which has no literal; drop = ...: it starts at zero, and the host or a hand-written system sets it"},
		{"type/resource struct named whole", schema.ErrType,
			"struct V { X: float32 }\nresource R { W: V }\nsystem S(phase: update) { from Shot s set s.X = R.W }",
			"bad.tw:9:49: R.W is a V struct: name one of its fields (R.W.X)"},
		{"duplicate/row variable named as a resource", schema.ErrDuplicate,
			"resource R { Speed: float32 = 1 }\nsystem S(phase: update) { from Shot R }",
			"bad.tw:8:37: row variable \"R\" has the name of the resource declared at bad.tw:7:10; use another name"},
		{"unknown/constant in a body", schema.ErrUnknown,
			"system S(phase: update) { from Shot s set s.X = Speed }",
			"bad.tw:7:49: unknown constant or row variable \"Speed\"; constants are W"},
		{"type/set a constant", schema.ErrType,
			"const K = 2\nsystem S(phase: update) { from Shot s set K.X = 1 }",
			"bad.tw:8:43: cannot set K.X: K is a constant, which has no columns or fields; constants are read by name (K)"},
		{"type/inferred constant meets an int", schema.ErrType,
			"const K = 2.5\nsystem S(phase: update) { from Shot s set s.TTL = K }",
			"bad.tw:8:51: constant K is not an integer; it cannot be int32"},
		{"unknown/column in a struct assignment, reported once", schema.ErrUnknown,
			"struct V { X: float32  Y: float32 }\ntable T(capacity: 8) { P: V }\nsystem S(phase: update) { from T t set t.P = t.Q + W }",
			"bad.tw:9:48: unknown column \"Q\" in t.Q (t is a row of table T); did you mean \"P\"?"},
		{"type/array column", schema.ErrType,
			"table T(capacity: 8) { A: [4]float32 }",
			"bad.tw:7:27: table T column A is an array; only a resource's fields are arrays (a table stores one value a row in each column)"},
		{"type/array struct field", schema.ErrType,
			"struct V { A: [4]float32 }",
			"bad.tw:7:15: field A of struct V is an array; only a resource's fields are arrays (a table stores one value a row in each column)"},
		{"type/array of structs", schema.ErrType,
			"struct V { X: float32 }\nresource R { A: [4]V }",
			"bad.tw:8:20: the elements of array type [...]V of resource R field A are int32, int64, float32, float64 or bool, not V"},
		{"value/array length out of range", schema.ErrValue,
			"resource R { A: [0]float32 }",
			"bad.tw:7:18: the length of an array of resource R field A is 0; it must be between 1 and 1048576"},
		{"type/array length not an integer", schema.ErrType,
			"resource R { A: [W]float32 }",
			"bad.tw:7:18: the length of an array of resource R field A must be an integer constant, not W"},
		{"type/array with an initial value", schema.ErrType,
			"resource R { A: [4]float32 = 1 }",
			"bad.tw:7:30: field A of resource R is an array [4]float32, which has no literal; drop = ...: it starts at zero, and the host or a hand-written system sets it"},
		{"type/array read whole", schema.ErrType,
			"resource R { A: [4]float32 }\nsystem S(phase: update) { from Shot s set s.X = R.A }",
			"bad.tw:8:49: R.A is an array [4]float32: read one element, R.A[INDEX] (an integer; outside 0..3 it wraps)"},
		{"type/index of a resource field not an array", schema.ErrType,
			"resource R { K: float32 }\nsystem S(phase: update) { from Shot s set s.X = R.K[0] }",
			"bad.tw:8:53: R.K is float32, not an array: it has no elements"},
		{"type/index of a column", schema.ErrType,
			"system S(phase: update) { from Shot s set s.X = s.X[1] }",
			"bad.tw:7:53: s.X is a column, not an array: it has no elements; only a resource's fields are arrays"},
		{"type/float index", schema.ErrType,
			"resource R { A: [4]float32 }\nsystem S(phase: update) { from Shot s set s.X = R.A[s.X] }",
			"bad.tw:8:53: the index of R.A must be an integer, not s.X (float32); floor(x) is the int32 cell of a float x"},
		{"type/floor of an integer", schema.ErrType,
			"system S(phase: update) { from Shot s set s.TTL = floor(s.TTL) }",
			"bad.tw:7:57: floor needs a float, not s.TTL (int32)"},
	}
	kinds := map[error]int{}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := schema.Load("bad.tw", []byte(prelude+tc.src))
			require.Error(t, err)
			assert.Nil(t, s)
			assert.Equal(t, tc.want, err.Error())
			assert.ErrorIs(t, err, tc.kind)
			var e *schema.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.want, e.Error(), "one error, the first")
			assert.Equal(t, "bad.tw", e.Pos.File)
			assert.True(t, strings.HasPrefix(tc.want, fmt.Sprintf("bad.tw:%d:%d: ", e.Pos.Line, e.Pos.Col)))
			assert.Equal(t, tc.want, e.Pos.String()+": "+e.Msg)
			for _, other := range []error{schema.ErrSyntax, schema.ErrDuplicate, schema.ErrUnknown, schema.ErrType,
				schema.ErrValue, schema.ErrMissing, schema.ErrAccess} {
				if other != tc.kind {
					assert.NotErrorIs(t, err, other)
				}
			}
		})
		kinds[tc.kind]++
	}
	assert.Len(t, kinds, 7, "every kind has cases")
	assert.GreaterOrEqual(t, len(cases), 25)
}

// TestErrorList: a schema with several errors reports each, in text
// order, one a line.
func TestErrorList(t *testing.T) {
	src := prelude + `system S(phase: update) { from Shot s set s.Y = 1 }
table T(capacity: 1) { Owner: ref Bdy }
system R(phase: fixed) { from Shots s }
`
	_, err := schema.Load("bad.tw", []byte(src))
	require.Error(t, err)
	assert.Equal(t, `bad.tw:7:45: unknown column "Y" in s.Y (s is a row of table Shot); did you mean "X"?
bad.tw:8:35: unknown table "Bdy" in ref type of table T column Owner; did you mean "Body"?
bad.tw:9:17: unknown phase "fixed" of system R; the phases are frame_start, fixed_update, update, late_update, frame_end
bad.tw:9:31: unknown table "Shots" in from of system R; did you mean "Shot"?`, err.Error())
	var list schema.ErrorList
	require.ErrorAs(t, err, &list)
	require.Len(t, list, 4)
	assert.Equal(t, schema.KindUnknown, list[2].Kind)
	assert.ErrorIs(t, err, schema.ErrUnknown)
	assert.NotErrorIs(t, err, schema.ErrSyntax)
}

// TestMaxErrors: a schema with many errors holds them all, in text order
// (the first MaxErrors of the text, whatever order the checker finds them
// in), and prints MaxErrors of them, then how many more.
func TestMaxErrors(t *testing.T) {
	var b strings.Builder
	for i := range 3 * schema.MaxErrors {
		fmt.Fprintf(&b, "table T%d(capacity: 0) { A: int32 }\n", i)
	}
	// Found before the tables' options (constants resolve first), printed
	// after them: the cut is by position.
	b.WriteString("const C: int32 = 1.5\n")
	_, err := schema.Load("many.tw", []byte(b.String()))
	var list schema.ErrorList
	require.ErrorAs(t, err, &list)
	require.Len(t, list, 3*schema.MaxErrors+1)
	assert.Equal(t, "many.tw:1:20: option capacity of table T0 is 0; it must be between 1 and 1073741824", list[0].Error())
	assert.Equal(t, 61, list[len(list)-1].Pos.Line)
	lines := strings.Split(err.Error(), "\n")
	require.Len(t, lines, schema.MaxErrors+1)
	assert.Equal(t, "many.tw:20:21: option capacity of table T19 is 0; it must be between 1 and 1073741824", lines[schema.MaxErrors-1])
	assert.Equal(t, "... and 41 more errors", lines[schema.MaxErrors])

	// One more: singular. Exactly MaxErrors: no last line.
	assert.Equal(t, "... and 1 more error", lastLine(append(slices.Clone(list[:schema.MaxErrors]), list[0])))
	assert.Equal(t, list[schema.MaxErrors-1].Error(), lastLine(list[:schema.MaxErrors]))
	assert.Equal(t, "many.tw:61:18: constant 1.5 is not an integer; it cannot be int32", list[len(list)-1].Error())
	assert.ErrorIs(t, err, schema.ErrType, "errors.Is sees the errors past the cut too")
	assert.NotErrorIs(t, list[:schema.MaxErrors], schema.ErrType)
}

func lastLine(l schema.ErrorList) string {
	lines := strings.Split(l.Error(), "\n")
	return lines[len(lines)-1]
}

// TestInputLimits: too large and invalid UTF-8 input are syntax errors
// with a position.
func TestInputLimits(t *testing.T) {
	_, err := schema.Load("big.tw", make([]byte, schema.MaxSize+1))
	require.ErrorIs(t, err, schema.ErrSyntax)
	assert.Equal(t, "big.tw: schema is 1048577 bytes, more than the limit of 1048576; split it", err.Error())

	_, err = schema.Load("utf.tw", []byte("table T(capacity: 1) {\n  A\xff: int32 }"))
	require.ErrorIs(t, err, schema.ErrSyntax)
	assert.Equal(t, "utf.tw:2:4: invalid UTF-8; save the schema as UTF-8", err.Error())
}

func TestKindString(t *testing.T) {
	assert.Equal(t, "access", schema.KindAccess.String())
	assert.Equal(t, "Kind(99)", schema.Kind(99).String())
	assert.NoError(t, (&schema.Error{Kind: 99}).Unwrap())
	assert.True(t, errors.Is(&schema.Error{Kind: schema.KindType}, schema.ErrType))
}

// TestNestingLimits: brackets, prefix operators and match blocks nest at
// most MaxDepth deep, and an expression has at most MaxOperators
// operators; one past a limit is a syntax error saying which limit, at
// its position, and the limit itself is accepted.
func TestNestingLimits(t *testing.T) {
	sys := func(body string) string {
		return "table T(capacity: 10) { X: int32 }\nsystem S(phase: update) { from T t " + body + " }"
	}
	brackets := func(n int) string {
		return sys("set t.X = " + strings.Repeat("(", n) + "t.X" + strings.Repeat(")", n))
	}
	matches := func(n int) string { // n nested matches: 2n+1 levels of { with the system's
		return sys(strings.Repeat("match { t.X > 0 => { ", n) + "set t.X = 1" + strings.Repeat(" } }", n))
	}
	chain := func(n int) string { return sys("set t.X = t.X" + strings.Repeat(" + 1", n)) }
	constChain := func(n int) string { return "const C: int32 = 1" + strings.Repeat(" - 1", n) }
	prefix := func(n int) string { return sys("set t.X = " + strings.Repeat("-", n) + "t.X") }
	cases := []struct{ name, src, want string }{
		{"brackets at the limit", brackets(schema.MaxDepth - 1), ""}, // the system's { is one
		{"brackets past it", brackets(schema.MaxDepth),
			"x.tw:2:109: nesting deeper than 64 brackets or prefix operators; simplify the expression"},
		{"prefix at the limit", prefix(schema.MaxDepth), ""},
		{"prefix past it", prefix(schema.MaxDepth + 1),
			"x.tw:2:110: nesting deeper than 64 brackets or prefix operators; simplify the expression"},
		{"matches at the limit", matches(31), ""},
		{"matches past it", matches(32),
			"x.tw:2:706: nesting deeper than 64 match blocks (a match and each of its arms are one level each); flatten the matches: combine their conditions with and"},
		{"operators at the limit", chain(schema.MaxOperators), ""},
		{"operators past it", chain(schema.MaxOperators + 1),
			"x.tw:2:50: expression with more than 1024 operators; split it: set a column in several steps, or name parts as constants"},
		{"constant operators past it", constChain(schema.MaxOperators + 1),
			"x.tw:1:20: expression with more than 1024 operators; split it: set a column in several steps, or name parts as constants"},
		{"operators of several expressions", sys("set t.X = t.X" + strings.Repeat(" + 1", 1000) + ", t.X = t.X" + strings.Repeat(" + 1", 1000)), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := schema.Load("x.tw", []byte(tc.src))
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, schema.ErrSyntax)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

// TestNoCycle: constraints that only look circular are accepted (across
// phases, a diamond), and so are systems that share data when a chain of
// constraints orders them (through declared or extern systems), or when
// they run in different phases, or only read it, or consume a next_frame
// event table another emits.
func TestNoCycle(t *testing.T) {
	for name, src := range map[string]string{
		"writers ordered through an extern": "extern system X\nsystem A(phase: update, before: X) { from Shot s set s.X = 1 }\n" +
			"system B(phase: update, after: X) { from Shot s set s.X = 2 }",
		"writers ordered through a chain": "system A(phase: update) { from Shot s set s.X = 1 }\nsystem M(phase: update, after: A) { from Body b }\n" +
			"system B(phase: update, after: M) { from Shot s set s.X = 2 }",
		"writers in two phases":       "system A(phase: update) { from Shot s set s.X = 1 }\nsystem B(phase: late_update) { from Shot s set s.X = 2 }",
		"two readers":                 "system A(phase: update) { from Body b set b.X = b.Y }\nsystem B(phase: update) { from Shot s join Body b on s.Target match { found(b) => { set s.X = b.Y } } }",
		"next_frame emit and consume": "system A(phase: update) { from Hit h }\nsystem B(phase: update) { from Shot s emit Hit { Target: s.Target, Damage: 1 } }",
		"across phases":               "system A(phase: update, before: B) { from Shot s }\nsystem B(phase: late_update, after: A) { from Shot s }",
		"diamond": "system A(phase: update, before: [B, C]) { from Shot s }\nsystem B(phase: update, before: D) { from Shot s }\n" +
			"system C(phase: update, before: D) { from Shot s }\nsystem D(phase: update, after: A) { from Shot s }",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := schema.Load("ok.tw", []byte(prelude+src))
			assert.NoError(t, err)
		})
	}
}

// TestIndependentErrors: a schema with several independent errors (an
// unknown column in two systems, a bad type, a write conflict, a
// phase-order contradiction, one of a system whose from failed, and an
// ordering cycle) lists every one at its position in one run, in text
// order: a cycle hides neither the phase order nor the conflicts, and a
// system whose body failed still has its phase checked.
func TestIndependentErrors(t *testing.T) {
	src := prelude + `system A(phase: update) { from Shot s set s.X = s.Nope }
system B(phase: update) { from Body b set b.Zed = 1 }
table T(capacity: 8) { V: float33 }
system C(phase: update) { from Unit u set u.Health = 1 }
system D(phase: update) { from Unit u set u.Health += 1 }
system E(phase: update, before: F) { from Body b set b.Y = 1 }
system F(phase: fixed_update) { from Shot s set s.TTL = 1 }
system G(phase: late_update, after: H) { from Shots s }
system H(phase: frame_end) { from Hit h }
system P(phase: frame_start, before: Q) { from Hit h }
system Q(phase: frame_start, before: P) { from Hit h }
`
	_, err := schema.Load("bad.tw", []byte(src))
	require.Error(t, err)
	assert.Equal(t, `bad.tw:7:51: unknown column "Nope" in s.Nope (s is a row of table Shot); its columns are X, TTL, Target
bad.tw:8:45: unknown column "Zed" in b.Zed (b is a row of table Body); its columns are X, Y
bad.tw:9:27: unknown type "float33" in table T column V; types are int32, int64, float32, float64, bool, ref TABLE and the declared structs
bad.tw:11:8: systems C (bad.tw:10:8) and D of phase update are not ordered, and both write Unit.Health; order them: add after: C to system D, or before: D to system C
bad.tw:12:33: system E (phase update) cannot run before F (phase fixed_update): phases run in the order frame_start, fixed_update, update, late_update, frame_end; drop before: F or move one of them to the other's phase
bad.tw:14:37: system G (phase late_update) cannot run after H (phase frame_end): phases run in the order frame_start, fixed_update, update, late_update, frame_end; drop after: H or move one of them to the other's phase
bad.tw:14:47: unknown table "Shots" in from of system G; did you mean "Shot"?
bad.tw:16:8: systems P, Q order themselves in a cycle (P runs before Q runs before P); drop one of these before/after constraints`, err.Error())
	var list schema.ErrorList
	require.ErrorAs(t, err, &list)
	assert.Len(t, list, 8, "every error, below MaxErrors: no cut line")
	for _, k := range []error{schema.ErrUnknown, schema.ErrAccess, schema.ErrValue} {
		assert.ErrorIs(t, err, k)
	}
}

// TestBadValueKeepsItsWrite: an assignment whose value fails (a constant
// that overflows its column, a value of the wrong type, a compound
// assignment to a bool) still writes its target, so the write conflict it
// makes with another system is reported beside it, each at its position.
func TestBadValueKeepsItsWrite(t *testing.T) {
	conflict := func(line, other int) string {
		return fmt.Sprintf("bad.tw:%d:8: systems C (bad.tw:%d:8) and D of phase update are not ordered, and both write Unit.Health; order them: add after: C to system D, or before: D to system C", line, other)
	}
	for name, tc := range map[string]struct{ src, want string }{
		"literal overflow": {
			"system C(phase: update) { from Unit u set u.Health = 3000000000 }\nsystem D(phase: update) { from Unit u set u.Health += 1 }",
			"bad.tw:7:54: constant 3000000000 overflows int32\n" + conflict(8, 7)},
		"folded overflow": {
			"system C(phase: update) { from Unit u set u.Health = 2147483647 + 1 }\nsystem D(phase: update) { from Unit u set u.Health += 1 }",
			"bad.tw:7:54: constant 2147483648 overflows int32\n" + conflict(8, 7)},
		"unknown column in the value": {
			"system C(phase: update) { from Unit u set u.Health = u.Nope }\nsystem D(phase: update) { from Unit u set u.Health += 1 }",
			"bad.tw:7:56: unknown column \"Nope\" in u.Nope (u is a row of table Unit); its columns are Health\n" + conflict(8, 7)},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := schema.Load("bad.tw", []byte(prelude+tc.src))
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			assert.ErrorIs(t, err, schema.ErrAccess)
		})
	}
}
