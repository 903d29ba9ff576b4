//! A statement's parameters and rows as both backends take and give them,
//! so the code that runs a statement names no backend. A tuple of
//! parameters becomes the arguments of whichever database runs it (what
//! sqlx's `bind` would have built), and a row type is one that both
//! decode.

use sqlx::postgres::{PgArguments, PgRow};
use sqlx::sqlite::{SqliteArguments, SqliteRow};
use sqlx::{Arguments, Encode, FromRow, Postgres, Sqlite, Type};

/// A value both backends can bind (`'q`: as long as the statement's
/// arguments borrow it).
pub(crate) trait Param<'q>:
    Encode<'q, Postgres> + Type<Postgres> + Encode<'q, Sqlite> + Type<Sqlite> + Send
{
}

impl<'q, T> Param<'q> for T where
    T: Encode<'q, Postgres> + Type<Postgres> + Encode<'q, Sqlite> + Type<Sqlite> + Send
{
}

/// A statement's parameters, `$1` first: a tuple of [`Param`]s. A value
/// that cannot be encoded fails the statement, as with sqlx's `bind`.
pub(crate) trait Params<'q>: Send {
    fn postgres(self) -> Result<PgArguments, sqlx::Error>;
    fn sqlite(self) -> Result<SqliteArguments, sqlx::Error>;
}

/// A row type (or a one-column tuple, for a scalar) both backends decode.
pub(crate) trait Record:
    for<'r> FromRow<'r, PgRow> + for<'r> FromRow<'r, SqliteRow> + Send + Unpin
{
}

impl<T> Record for T where
    T: for<'r> FromRow<'r, PgRow> + for<'r> FromRow<'r, SqliteRow> + Send + Unpin
{
}

macro_rules! tuple_params {
    ($($param:ident)*) => {
        impl<'q, $($param: Param<'q>),*> Params<'q> for ($($param,)*) {
            #[allow(non_snake_case)]
            fn postgres(self) -> Result<PgArguments, sqlx::Error> {
                let ($($param,)*) = self;
                #[allow(unused_mut)]
                let mut arguments = PgArguments::default();
                $(arguments.add($param).map_err(sqlx::Error::Encode)?;)*
                Ok(arguments)
            }

            #[allow(non_snake_case)]
            fn sqlite(self) -> Result<SqliteArguments, sqlx::Error> {
                let ($($param,)*) = self;
                #[allow(unused_mut)]
                let mut arguments = SqliteArguments::default();
                $(arguments.add($param).map_err(sqlx::Error::Encode)?;)*
                Ok(arguments)
            }
        }
    };
}

tuple_params!();
tuple_params!(A);
tuple_params!(A B);
tuple_params!(A B C);
tuple_params!(A B C D);
tuple_params!(A B C D E);
tuple_params!(A B C D E F);
tuple_params!(A B C D E F G);
tuple_params!(A B C D E F G H);
tuple_params!(A B C D E F G H I);
tuple_params!(A B C D E F G H I J);
tuple_params!(A B C D E F G H I J K);
tuple_params!(A B C D E F G H I J K L);
tuple_params!(A B C D E F G H I J K L M);
tuple_params!(A B C D E F G H I J K L M N);
tuple_params!(A B C D E F G H I J K L M N O);
