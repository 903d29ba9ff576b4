//! The page speaks the browser's language, and the person's choice wins
//! over it.

use super::driver::Page;

pub async fn a_swedish_browser_sees_swedish_until_another_is_chosen(page: &Page, site: &str) {
    page.open(&format!("{site}#/help")).await;
    page.until(
        "the page in Swedish",
        "document.documentElement.lang === 'sv' \
         && document.querySelector('a[href=\"#/\"][data-i18n]').textContent === 'Spela'",
    )
    .await;
    assert_eq!(
        page.text("a[href='#/leaderboard'][data-i18n]").await,
        "Topplista"
    );
    assert_eq!(
        page.text("a[href='#/help'][data-i18n]").await,
        "Så spelar du"
    );

    // Chosen: Finnish, kept over the browser's Swedish after a reload.
    page.eval(
        "const picker = document.getElementById('language'); picker.value = 'fi'; \
         picker.dispatchEvent(new Event('change'));",
    )
    .await;
    page.until("the choice taken", "document.documentElement.lang === 'fi'")
        .await;
    page.eval("location.reload()").await;
    page.until(
        "the page in Finnish after a reload",
        "document.documentElement.lang === 'fi' \
         && document.querySelector('a[href=\"#/\"][data-i18n]').textContent === 'Pelaa'",
    )
    .await;
}
