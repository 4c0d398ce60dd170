package schema

import "slices"

// Use is how a system's body uses one column of one row variable, or one
// field of its event: part of the system's Access, what the generator
// declares, loads and stores.
type Use struct {
	Var    *Var
	Column *Column
	Read   bool // its value is read (a compound assignment reads it)
	Write  bool
	Every  bool // written by a statement outside match arms: on every item
}

// uses derives the body's column uses (Access.Uses) and the float types
// @dt is read as: a join's Via column is read for every item, then each
// statement in order. Uses come out in declaration order: the from
// variable's columns, then each join's, each in its table's order.
func (a *Access) uses(sys *System) {
	u := &useWalk{a: a, at: map[useKey]int{}}
	for _, j := range sys.Joins {
		u.note(sys.From, j.Via, false, true)
	}
	u.stmts(sys.Body, true)
	vars := []*Var{sys.From}
	for _, j := range sys.Joins {
		vars = append(vars, j.Var)
	}
	slices.SortStableFunc(a.Uses, func(x, y Use) int {
		if x.Var != y.Var {
			return slices.Index(vars, x.Var) - slices.Index(vars, y.Var)
		}
		return x.Column.Index - y.Column.Index
	})
}

type useKey struct {
	v *Var
	c *Column
}

// useWalk is one walk of a checked body for its uses.
type useWalk struct {
	a  *Access
	at map[useKey]int // index in a.Uses
}

func (u *useWalk) note(v *Var, c *Column, write, every bool) {
	k := useKey{v, c}
	i, ok := u.at[k]
	if !ok {
		i = len(u.a.Uses)
		u.at[k] = i
		u.a.Uses = append(u.a.Uses, Use{Var: v, Column: c})
	}
	p := &u.a.Uses[i]
	if write {
		p.Write = true
		p.Every = p.Every || every
	} else {
		p.Read = true
	}
}

func (u *useWalk) stmts(ss []Stmt, every bool) {
	for _, s := range ss {
		switch s := s.(type) {
		case *SetStmt:
			for _, a := range s.Assigns {
				u.expr(a.Value)
				if a.Op != Assign {
					u.note(a.Target.Var, a.Target.Column, false, every)
				}
				u.note(a.Target.Var, a.Target.Column, true, every)
			}
		case *MatchStmt:
			for _, a := range s.Arms {
				if a.Cond != nil {
					u.expr(a.Cond)
				}
				u.stmts(a.Body, false)
			}
		case *EmitStmt:
			for _, v := range s.Values {
				u.expr(v)
			}
		}
	}
}

func (u *useWalk) expr(e Expr) {
	switch e := e.(type) {
	case *ColRef:
		u.note(e.Var, e.Column, false, false)
	case *EnvRef:
		if e.Env == DT {
			u.a.DTFloat32 = u.a.DTFloat32 || e.T.Kind == Float32
			u.a.DTFloat64 = u.a.DTFloat64 || e.T.Kind == Float64
		}
	case *Unary:
		u.expr(e.X)
	case *Binary:
		u.expr(e.X)
		u.expr(e.Y)
	case *Convert:
		u.expr(e.X)
	case *Floor:
		u.expr(e.X)
	case *ResRef:
		if e.Index != nil {
			u.expr(e.Index)
		}
	case *IndexOf:
		u.expr(e.X)
	}
}
