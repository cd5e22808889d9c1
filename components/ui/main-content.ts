/** The dashboard's <main>: the skip link's target and the focus keeper's last resort. */
export const MAIN_CONTENT_ID = 'main-content';
